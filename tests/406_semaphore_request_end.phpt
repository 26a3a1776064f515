--TEST--
RSemaphore: permits held when the request ends (exit() without release()) are given back at once (auto_release), and kept to their lease with auto_release off
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$o = rlock_test_options(['ttl' => 20000]);
foreach ([true, false] as $auto) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        $s = new RSemaphore("end-$auto", 3, $o + ['auto_release' => $auto]);
        $s->acquire(2);
        $GLOBALS['keep'] = $s;
        exit(0);
    }
    pcntl_waitpid($pid, $status);
    $s = new RSemaphore("end-$auto", 3, $o);
    echo "auto_release ", var_export($auto, true), ": ", $s->available(), " free\n";
}
?>
--EXPECT--
auto_release true: 3 free
auto_release false: 1 free
