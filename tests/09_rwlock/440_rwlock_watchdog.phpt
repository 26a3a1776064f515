--TEST--
RReadWriteLock: with "watchdog", both sides' leases (ttl 300) are renewed while held for 700 ms, and stay ours
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../watchdog.inc';
$s = rlock_test_slow();
$o = rlock_test_options(['ttl' => 300 * $s, 'watchdog' => true]);
$rw = new RReadWriteLock('stock', $o);
var_dump($rw->writeLock()->tryLock(), $rw->readLock()->tryLock());
var_dump(rlock_test_info('Watchdog locks renewed now'));
rlock_test_sleep(700 * $s);
var_dump($rw->writeLock()->isAcquired(), $rw->readLock()->isAcquired(), $rw->writeLock()->lost(), $rw->readLock()->lost());
var_dump($rw->readLock()->unlock(), $rw->writeLock()->unlock());
var_dump(rlock_test_info('Watchdog locks renewed now'));
?>
--EXPECT--
bool(true)
bool(true)
int(2)
bool(true)
bool(true)
bool(false)
bool(false)
bool(true)
bool(true)
int(0)
