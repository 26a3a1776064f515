--TEST--
RSemaphore: acquire($n, $waitMs) that cannot be served returns false at its deadline, not much later, and leaves the queue (nothing left in Redis)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$o = rlock_test_options();
$a = new RSemaphore('full', 2, $o);
$b = new RSemaphore('full', 2, $o);
var_dump($a->acquire(2));
$t = microtime(true);
var_dump($b->acquire(1, 200));
$ms = (microtime(true) - $t) * 1000;
echo "waited its 200 ms: ", var_export($ms >= 190, true), "\n";
echo "not much longer: ", var_export($ms < 200 + 300 * $slow, true), "\n";
$h = rlock_test_companion($o['prefix'] . 'full', 'semaphore');
var_dump(rlock_test_cmd('EXISTS', "$h-queue", "$h-waiters"));
var_dump($a->release(), rlock_test_cmd('EXISTS', $h));
?>
--EXPECT--
bool(true)
bool(false)
waited its 200 ms: true
not much longer: true
int(0)
bool(true)
int(0)
