--TEST--
RReadWriteLock with "sync_replicas": short of the replicas, an acquire of either side gives the lock back and fails
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
// the test server has no replica: WAIT 1 answers 0 after its timeout
$o = rlock_test_options(['sync_replicas' => 1, 'read_timeout' => 200]);
$rw = new RReadWriteLock('stock', $o);
var_dump($rw->readLock()->tryLock(), $rw->writeLock()->tryLock());
var_dump(rlock_test_cmd('EXISTS', rlock_test_companion($rw->readLock()->key(), 'read'), rlock_test_companion($rw->writeLock()->key(), 'write')));
$plain = new RReadWriteLock('stock', rlock_test_options(['sync_replicas' => 0]));
var_dump($plain->writeLock()->tryLock());
?>
--EXPECT--
bool(false)
bool(false)
int(0)
bool(true)
