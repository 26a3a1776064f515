--TEST--
RSemaphore: a waiter SIGKILLed while queued does not hold up the queue for ever: the waiter behind it is served within the dead one's ticket and lease
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
$o = rlock_test_options(['ttl' => 300 * $slow]);
$h = rlock_test_companion($o['prefix'] . 'dead', 'semaphore');
$s = new RSemaphore('dead', 2, $o + ['ttl' => 20000]);
var_dump($s->acquire(2));
$pid = pcntl_fork();
if ($pid === 0) {
    (new RSemaphore('dead', 2, $o))->acquire(2, 60000);
    exit(1);
}
$deadline = microtime(true) + 10 * $slow;
while (rlock_test_cmd('LLEN', "$h-queue") !== 1) {
    if (microtime(true) > $deadline) {
        die("the child never queued\n");
    }
    usleep(5000);
}
exec("kill -KILL $pid");
pcntl_waitpid($pid, $status);
echo "killed: ", var_export(pcntl_wifsignaled($status), true), "\n";
// the release serves the dead waiter's live ticket (its permits end with its 300 ms lease),
// or drops it once its deadline passed; either way the next waiter is served in time
var_dump($s->release());
$w = new RSemaphore('dead', 2, $o);
$t = microtime(true);
var_dump($w->acquire(2, 5000 * $slow));
echo "served within a bound: ", var_export((microtime(true) - $t) * 1000 < 2500 * $slow, true), "\n";
?>
--EXPECT--
bool(true)
killed: true
bool(true)
bool(true)
served within a bound: true
