--TEST--
RReadWriteLock: RLock::release() releases RLock mutexes only: given a side's token (under the lock's key or the side's) it returns false and releases nothing
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$o = rlock_test_options();
$rw = new RReadWriteLock('stock', $o);
var_dump($rw->writeLock()->tryLock());
var_dump(RLock::release('stock', $rw->writeLock()->token(), $o));
var_dump(RLock::release($rw->writeLock()->key(), $rw->writeLock()->token(), ['prefix' => ''] + $o));
var_dump($rw->writeLock()->isAcquired());
var_dump($rw->writeLock()->unlock(), $rw->readLock()->tryLock());
var_dump(RLock::release('stock', $rw->readLock()->token(), $o));
var_dump($rw->readLock()->isAcquired(), $rw->readLock()->unlock());
?>
--EXPECT--
bool(true)
bool(false)
bool(false)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
