--TEST--
RSemaphore: a SIGKILLed holder's permits come back when its lease ends, and a waiter blocked on them is served then, though nobody released
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$o = rlock_test_options(['ttl' => 400 * $slow]);
$pid = pcntl_fork();
if ($pid === 0) {
    $s = new RSemaphore('crash', 2, $o);
    $s->acquire(2);
    exec('kill -KILL ' . getmypid());
}
pcntl_waitpid($pid, $status);
echo "killed: ", var_export(pcntl_wifsignaled($status), true), "\n";
$s = new RSemaphore('crash', 2, $o);
var_dump($s->available(), $s->tryAcquire(1));
$t = microtime(true);
var_dump($s->acquire(1, 10000 * $slow));
$ms = (microtime(true) - $t) * 1000;
echo "served within the lease and a short bound: ", var_export($ms < (400 + 500) * $slow, true), "\n";
var_dump($s->held(), $s->available());
?>
--EXPECT--
killed: true
int(0)
bool(false)
bool(true)
served within the lease and a short bound: true
int(1)
int(1)
