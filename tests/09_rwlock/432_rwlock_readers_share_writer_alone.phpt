--TEST--
RReadWriteLock: readers hold it together, a writer alone: no writer while a reader is in, no reader while a writer is
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
// reentrant off: each object is a holder of its own, as another process would be
$o = rlock_test_options(['reentrant' => false]);
[$a, $b, $c] = [new RReadWriteLock('stock', $o), new RReadWriteLock('stock', $o), new RReadWriteLock('stock', $o)];
echo "two readers: ", json_encode([$a->readLock()->tryLock(), $b->readLock()->tryLock()]), "\n";
echo "readers overlap in Redis: ", rlock_test_cmd('ZCARD', rlock_test_companion($a->readLock()->key(), 'read')), "\n";
echo "read side locked, acquired: ", json_encode([$a->readLock()->isLocked(), $a->readLock()->isAcquired(), $c->readLock()->isAcquired()]), "\n";
echo "a writer meanwhile: ", json_encode($c->writeLock()->tryLock()), "\n";
echo "one reader leaves: ", json_encode([$a->readLock()->unlock(), $c->writeLock()->tryLock()]), "\n";
echo "the last one leaves: ", json_encode([$b->readLock()->unlock(), $c->writeLock()->tryLock()]), "\n";
echo "write side locked, acquired: ", json_encode([$c->writeLock()->isLocked(), $c->writeLock()->isAcquired(), $a->writeLock()->isAcquired()]), "\n";
echo "readers and another writer meanwhile: ", json_encode([$a->readLock()->tryLock(), $b->writeLock()->tryLock()]), "\n";
echo "the writer leaves: ", json_encode([$c->writeLock()->unlock(), $a->readLock()->tryLock(), $a->readLock()->unlock()]), "\n";
echo "read side locked: ", json_encode($a->readLock()->isLocked()), ", ttl ", $a->readLock()->ttl(), "\n";
echo "nothing left: ", json_encode(rlock_test_cmd('KEYS', $o['prefix'] . '*') ?: rlock_test_cmd('KEYS', '*' . $o['prefix'] . '*')), "\n";
?>
--EXPECT--
two readers: [true,true]
readers overlap in Redis: 2
read side locked, acquired: [true,true,false]
a writer meanwhile: false
one reader leaves: [true,false]
the last one leaves: [true,true]
write side locked, acquired: [true,true,false]
readers and another writer meanwhile: [false,false]
the writer leaves: [true,true,true]
read side locked: false, ttl -2
nothing left: []
