--TEST--
RReadWriteLock: a process holding the write side takes the read side at once (reentrant), and keeps others out until both are released; one holding the read side is refused the write side at once
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options();
$rw = new RReadWriteLock('stock', $o);
// another holder: reentrant off, so its holds are not this process' (as another process)
$other = new RReadWriteLock('stock', ['reentrant' => false] + $o);
echo "write, then read: ", json_encode([$rw->writeLock()->tryLock(), $rw->readLock()->tryLock()]), "\n";
echo "a second read through another object of this process: ", json_encode((new RReadWriteLock('stock', $o))->readLock()->tryLock()), "\n";
echo "another holder reads, writes: ", json_encode([$other->readLock()->tryLock(), $other->writeLock()->tryLock()]), "\n";
echo "the write side released: ", json_encode($rw->writeLock()->unlock()), "\n";
echo "another holder writes (our reader is in), reads: ", json_encode([$other->writeLock()->tryLock(), $other->readLock()->tryLock()]), "\n";
echo "the read side released: ", json_encode([$rw->readLock()->unlock(), $other->readLock()->unlock()]), "\n";
echo "another holder writes: ", json_encode($other->writeLock()->tryLock()), "\n";
echo "reentrant off: a writer's own read waits: ", json_encode($other->readLock()->tryLock()), "\n";
echo "read, then write: ", json_encode([$other->writeLock()->unlock(), $rw->readLock()->tryLock()]);
// a writer waits for every reader to leave, this context's own included: refused at once (phpt 791)
try {
    $rw->writeLock()->lock(50);
} catch (RLockException $e) {
    echo ", ", get_class($e), "\n";
}
?>
--EXPECT--
write, then read: [true,true]
a second read through another object of this process: true
another holder reads, writes: [false,false]
the write side released: true
another holder writes (our reader is in), reads: [false,true]
the read side released: [true,true]
another holder writes: true
reentrant off: a writer's own read waits: false
read, then write: [true,true], RLockException
