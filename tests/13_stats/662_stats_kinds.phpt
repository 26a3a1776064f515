--TEST--
Statistics name every primitive as the user wrote it: a mutex by its key, a read-write lock's sides by their key and kind, a semaphore by its name, RLock::multi() by its keys
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
rlock.stats_keys=16
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options();
$p = $o['prefix'];
$m = new RLock('mutex', $o);
$m->lock();
$m->unlock();
$rw = new RReadWriteLock('rw', $o);
$r = $rw->readLock();
$r->lock();
$r->unlock();
$w = $rw->writeLock();
$w->lock();
$w->unlock();
$s = new RSemaphore('sem', 3, $o);
$s->acquire(2);
$s2 = new RSemaphore('sem', 3, $o);
$s2->tryAcquire(2);              // 1 left: found taken
$s->release();
$multi = RLock::multi(['x', 'y'], $o);
$multi->lock();
$multi->unlock();
// the heaviest first (the semaphore: an acquire and a contended try), then by name
foreach (rlock_status()['keys'] as $name => $row) {
    echo str_replace($p, 'P:', $name), " ({$row['kind']}): acquires={$row['acquires']} contended={$row['contended']}\n";
}
?>
--EXPECT--
P:sem (semaphore): acquires=1 contended=1
lock over "P:x", "P:y" (multi): acquires=1 contended=0
P:mutex (lock): acquires=1 contended=0
P:rw (read) (read): acquires=1 contended=0
P:rw (write) (write): acquires=1 contended=0
