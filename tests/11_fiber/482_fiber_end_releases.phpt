--TEST--
Fibers: a Fiber that ends holding (returns, throws, is destroyed while suspended, or is collected as garbage while suspended) releases its holds as a request's end does, whatever object took them, and wakes a waiter in another process; with auto_release off the lock stays until its ttl
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
$o = rlock_test_options(['ttl' => 30000]);
// the objects live in the main flow, past the Fibers that lock through them: only the end
// of a Fiber can release these holds
$l = new RLock('returns', $o);
$f = new Fiber(function () use ($l) { $l->lock(); $l->lock(); });
$f->start();
echo "returned: ", var_export(rlock_test_cmd('EXISTS', $l->key()), true), ", isAcquired: ", var_export($l->isAcquired(), true),
    ", unlock: ", var_export($l->unlock(), true), "\n";

$l = new RLock('throws', $o);
$f = new Fiber(function () use ($l) { $l->lock(); throw new RuntimeException('task failed'); });
try {
    $f->start();
} catch (RuntimeException $e) {
    echo "threw (", $e->getMessage(), "): ", var_export(rlock_test_cmd('EXISTS', $l->key()), true), "\n";
}

$l = new RLock('destroyed', $o);
$sem = new RSemaphore('destroyed', 2, $o);
$f = new Fiber(function () use ($l, $sem) { $l->lock(); $sem->acquire(); Fiber::suspend(); echo "never resumed\n"; });
$f->start();
echo "suspended: ", var_export(rlock_test_cmd('EXISTS', $l->key()), true), ", permits free: ", $sem->available(), "\n";
unset($f);
echo "destroyed: ", var_export(rlock_test_cmd('EXISTS', $l->key()), true), ", permits free: ", $sem->available(), "\n";

$l = new RLock('collected', $o);
$f = new Fiber(function () use ($l, &$f) { $l->lock(); Fiber::suspend(); });
$f->start();
unset($f);
echo "in a cycle, unreachable: ", var_export(rlock_test_cmd('EXISTS', $l->key()), true), "\n";
gc_collect_cycles();
echo "collected: ", var_export(rlock_test_cmd('EXISTS', $l->key()), true), "\n";

// a waiter in another process is woken by the Fiber's end
$l = new RLock('waited', $o);
[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$f = new Fiber(function () use ($l) { $l->lock(); Fiber::suspend(); });
$f->start();
$pid = pcntl_fork();
if ($pid === 0) {
    fclose($mine);
    $w = new RLock('waited', $o);
    $got = $w->lock(15000 * $slow);
    fwrite($theirs, json_encode(['got' => $got, 'at' => microtime(true)]) . "\n");
    exit(0);
}
fclose($theirs);
$deadline = microtime(true) + 10 * $slow;
while (rlock_test_cmd('GET', rlock_test_companion($l->key(), 'waiters')) !== '1') {
    if (microtime(true) > $deadline) {
        die("the child never queued\n");
    }
    usleep(5000);
}
$t0 = microtime(true);
$f->resume();
$child = json_decode(fgets($mine), true);
pcntl_waitpid($pid, $status);
echo "waiter got it: ", var_export($child['got'], true), ", soon after the Fiber's end: ",
    var_export(($child['at'] - $t0) * 1000 < 1000 * $slow, true), "\n";

// auto_release off: kept past the Fiber as past a request, until its ttl
$l = new RLock('kept', ['auto_release' => false] + $o);
$f = new Fiber(function () use ($l) { $l->lock(); });
$f->start();
echo "auto_release off: ", var_export(rlock_test_cmd('GET', $l->key()) !== null, true), ", ttl left: ",
    var_export(rlock_test_cmd('PTTL', $l->key()) > 0, true), "\n";
rlock_test_cmd('DEL', $l->key());
?>
--EXPECT--
returned: 0, isAcquired: false, unlock: false
threw (task failed): 0
suspended: 1, permits free: 1
destroyed: 0, permits free: 2
in a cycle, unreachable: 1
collected: 0
waiter got it: true, soon after the Fiber's end: true
auto_release off: true, ttl left: true
