--TEST--
RSemaphore: with the watchdog option the lease of our permits is renewed while held (held past its ttl, released as ours)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$o = rlock_test_options(['ttl' => 150 * $slow]);
$s = new RSemaphore('wd', 2, $o + ['watchdog' => true]);
$other = new RSemaphore('wd', 2, $o);
var_dump($s->acquire(2));
$h = rlock_test_companion($o['prefix'] . 'wd', 'semaphore');
// three ttls pass (the time is what is tested: no condition to await)
usleep(450000 * $slow);
var_dump($other->tryAcquire(1), $s->held(), $other->available());
var_dump($s->release(), $other->available());
// without the watchdog the lease ends
$t = new RSemaphore('wd', 2, $o);
var_dump($t->acquire(2));
usleep(200000 * $slow);
var_dump($other->available(), $t->release());
?>
--EXPECT--
bool(true)
bool(false)
int(2)
int(0)
bool(true)
int(2)
bool(true)
int(2)
bool(false)
