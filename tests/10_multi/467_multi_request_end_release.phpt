--TEST--
A multi lock held when its process' request ends (exit() without unlock) is released at once, every key of it
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['ttl' => 60000]);
$p = $o['prefix'];
$pid = pcntl_fork();
if ($pid === 0) {
    $keep = RLock::multi(['a', 'b', 'c'], $o);
    // the child's verdict: it held the three keys when its request ended
    exit($keep->lock() && rlock_test_cmd('EXISTS', "{$p}a", "{$p}b", "{$p}c") === 3 ? 0 : 3);
}
pcntl_waitpid($pid, $status);
echo "child: ", rlock_test_exit($status), "\n";
var_dump(rlock_test_cmd('EXISTS', "{$p}a", "{$p}b", "{$p}c"));
?>
--EXPECT--
child: 0
int(0)
