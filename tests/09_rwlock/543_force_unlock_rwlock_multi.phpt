--TEST--
RLock::forceUnlock() on a read-write lock's sides (the read side: every reader out; the write side: whoever writes) and on a lock over several keys (each key, whoever holds it)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
// reentrant off: one process' write and read holds exclude each other as two processes' do
$o = rlock_test_options(['ttl' => 20000, 'reentrant' => false]);
$a = new RReadWriteLock('stock', $o);
$b = new RReadWriteLock('stock', $o);
$c = new RReadWriteLock('stock', $o);
echo "read side\n";
var_dump($a->readLock()->tryLock(), $b->readLock()->tryLock());
var_dump($c->writeLock()->lock(1), $c->writeLock()->forceUnlock());   // the write side: nobody writes
var_dump((new RReadWriteLock('stock', $o))->readLock()->forceUnlock());
var_dump($a->readLock()->isAcquired(), $b->readLock()->isAcquired(), $a->readLock()->unlock());
var_dump((new RReadWriteLock('stock', $o))->readLock()->forceUnlock());
echo "write side\n";
var_dump($a->writeLock()->tryLock(), $b->readLock()->tryLock());
var_dump((new RReadWriteLock('stock', $o))->writeLock()->forceUnlock(), $a->writeLock()->isAcquired());
var_dump($b->readLock()->tryLock(), $b->readLock()->unlock(), $a->writeLock()->unlock());
echo "several keys\n";
$x = new RLock('x', $o);
$multi = RLock::multi(['y', 'z'], $o);
var_dump($x->lock(), $multi->lock());
var_dump(RLock::multi(['x', 'y'], $o)->forceUnlock());
var_dump($x->isAcquired(), (new RLock('y', $o))->isLocked(), (new RLock('z', $o))->isLocked());
var_dump($multi->unlock(), (new RLock('z', $o))->isLocked());
var_dump(RLock::multi(['x', 'y'], $o)->forceUnlock());
?>
--EXPECT--
read side
bool(true)
bool(true)
bool(false)
bool(false)
bool(true)
bool(false)
bool(false)
bool(false)
bool(false)
write side
bool(true)
bool(false)
bool(true)
bool(false)
bool(true)
bool(true)
bool(false)
several keys
bool(true)
bool(true)
bool(true)
bool(false)
bool(false)
bool(true)
bool(false)
bool(false)
bool(false)
