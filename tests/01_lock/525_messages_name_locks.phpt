--TEST--
Exception messages name locks and semaphores as the user knows them (the key with its prefix, as key() shows it), never an internal companion key: a mutex, a read-write lock's sides, a lock over several keys, a semaphore ("1 permit", "2 permits"), on a timeout and on a lease lost
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['reentrant' => false]);
$p = $o['prefix'];
function show(callable $fn, string $p): void
{
    try {
        $fn();
        echo "no exception\n";
    } catch (RLockException $e) {
        echo get_class($e), ': ', str_replace($p, '{prefix}', $e->getMessage()), "\n";
    }
}

echo "-- not acquired in time\n";
$held = new RLock('m', $o);
$held->lock();
show(fn () => (new RLock('m', $o))->synchronized(fn () => 1, 0), $p);
$rw = new RReadWriteLock('stock:SKU1', $o);
$rw->writeLock()->lock();
$other = new RReadWriteLock('stock:SKU1', $o);
show(fn () => $other->readLock()->synchronized(fn () => 1, 0), $p);
show(fn () => $other->writeLock()->synchronized(fn () => 1, 0), $p);
$rw->writeLock()->unlock();
// held by another context (a Fiber): a multi of this one over it is not acquired in time
$held = new RLock('a', $o);
$fiber = new Fiber(function () use ($held) { $held->lock(); Fiber::suspend(); $held->unlock(); });
$fiber->start();
show(fn () => RLock::multi(['a', 'b'], $o)->synchronized(fn () => 1, 0), $p);
$fiber->resume();
$s = new RSemaphore('psp3', 2, $o);
$s->acquire(2);
show(fn () => (new RSemaphore('psp3', 2, $o))->synchronized(fn () => 1, 1, 0), $p);
show(fn () => (new RSemaphore('psp3', 2, $o))->synchronized(fn () => 1, 2, 0), $p);
$s->release();

echo "-- the lease lost before the release\n";
$flush = fn () => array_map(fn ($k) => rlock_test_cmd('DEL', $k), rlock_test_cmd('KEYS', "*$p*"));
show(fn () => (new RLock('gone', $o))->synchronized($flush), $p);
show(fn () => (new RReadWriteLock('stock:SKU2', $o))->readLock()->synchronized($flush), $p);
show(fn () => (new RReadWriteLock('stock:SKU2', $o))->writeLock()->synchronized($flush), $p);
show(fn () => RLock::multi(['c', 'd'], $o)->synchronized($flush), $p);
show(fn () => (new RSemaphore('psp4', 3, $o))->synchronized($flush, 2), $p);
?>
--EXPECT--
-- not acquired in time
RLockTimeoutException: Could not acquire the lock "{prefix}m" within 0 ms
RLockTimeoutException: Could not acquire the read lock "{prefix}stock:SKU1" within 0 ms
RLockTimeoutException: Could not acquire the write lock "{prefix}stock:SKU1" within 0 ms
RLockTimeoutException: Could not acquire the lock over "{prefix}a", "{prefix}b" within 0 ms
RLockTimeoutException: Could not acquire 1 permit of the semaphore "{prefix}psp3" within 0 ms
RLockTimeoutException: Could not acquire 2 permits of the semaphore "{prefix}psp3" within 0 ms
-- the lease lost before the release
RLockLostException: The lock "{prefix}gone" expired before it was released
RLockLostException: The read lock "{prefix}stock:SKU2" expired before it was released
RLockLostException: The write lock "{prefix}stock:SKU2" expired before it was released
RLockLostException: The lock over "{prefix}c", "{prefix}d" expired before it was released
RLockLostException: The permits of the semaphore "{prefix}psp4" expired before they were released
