--TEST--
RSemaphore: permits held when the request ends (exit() without release()) are given back at once (auto_release), and kept to their lease with auto_release off
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['ttl' => 20000]);
foreach ([true, false] as $auto) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        $s = new RSemaphore("end-$auto", 3, $o + ['auto_release' => $auto]);
        // the child's verdict: it held 2 (as Redis counts them) when its request ended
        $got = $s->acquire(2) && $s->isAcquired() && (new RSemaphore("end-$auto", 3, $o))->available() === 1;
        $GLOBALS['keep'] = $s;
        exit($got ? 0 : 3);
    }
    pcntl_waitpid($pid, $status);
    $s = new RSemaphore("end-$auto", 3, $o);
    echo "auto_release ", var_export($auto, true), ": child ", rlock_test_exit($status), ", ", $s->available(), " free\n";
}
?>
--EXPECT--
auto_release true: child 0, 3 free
auto_release false: child 0, 1 free
