--TEST--
A lock handed over after a wait longer than its own ttl is held by its full lease from the hand-over: a nested lock() re-enters it at once (it counted the lease from when its waiting round was sent, already over, and waited for itself), and ttl() is the lease it took
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$o = rlock_test_options(['fair' => true]);
$key = $o['prefix'] . 'x';
$pid = pcntl_fork();
if ($pid === 0) {
    // the holder, with a long lease: it lets go once the waiter blocks, a while later
    $h = new RLock('x', ['ttl' => 30000 * $slow] + $o);
    $h->lock();
    for ($deadline = microtime(true) + 30; rlock_test_cmd('GET', rlock_test_companion($key, 'waiters')) === null && microtime(true) < $deadline;) {
        usleep(5000);
    }
    usleep(800000 * $slow);  // longer than the waiter's ttl: the hand-over comes after it
    exit($h->unlock() ? 0 : 1);
}
for ($deadline = microtime(true) + 30; rlock_test_cmd('EXISTS', $key) !== 1 && microtime(true) < $deadline;) {
    usleep(1000);
}
$w = new RLock('x', ['ttl' => 300 * $slow] + $o);
var_dump($w->lock(20000 * $slow));
var_dump($w->lock(0), $w->ttl() > 0, $w->unlock(), $w->unlock());
pcntl_waitpid($pid, $status);
var_dump(pcntl_wexitstatus($status));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
