--TEST--
A ttl under 100 ms ('ttl' => 5, seconds meant) is a ValueError that says milliseconds: in the options of RLock, RLock::multi(), RLock::release(), RSemaphore and RReadWriteLock, and in extend($ttlMs) of RLock, RSemaphore and a read-write lock's sides; 100 is taken
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
function attempt(callable $call): void
{
    try {
        $call();
        echo "taken\n";
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
$five = rlock_test_options(['ttl' => 5]);
attempt(fn() => new RLock('k', $five));
attempt(fn() => RLock::multi(['a', 'b'], $five));
attempt(fn() => RLock::release('k', 'token', $five));
attempt(fn() => new RSemaphore('s', 2, $five));
attempt(fn() => new RReadWriteLock('rw', $five));
attempt(fn() => new RLock('k', rlock_test_options(['ttl' => 99])));

$l = new RLock('k', rlock_test_options(['ttl' => 100]));
var_dump($l->lock());
attempt(fn() => $l->extend(5));
attempt(fn() => $l->extend(100));
$l->unlock();
$s = new RSemaphore('s', 2, rlock_test_options());
$s->acquire();
attempt(fn() => $s->extend(30));
$s->release();
$w = (new RReadWriteLock('rw', rlock_test_options()))->writeLock();
$w->lock();
attempt(fn() => $w->extend(1));
$w->unlock();
?>
--EXPECT--
RLock::__construct(): Argument #2 ($options) option "ttl" is in milliseconds and must be at least 100: 5 would be 5 ms (5 seconds is 5000)
RLock::multi(): Argument #2 ($options) option "ttl" is in milliseconds and must be at least 100: 5 would be 5 ms (5 seconds is 5000)
RLock::release(): Argument #3 ($options) option "ttl" is in milliseconds and must be at least 100: 5 would be 5 ms (5 seconds is 5000)
RSemaphore::__construct(): Argument #3 ($options) option "ttl" is in milliseconds and must be at least 100: 5 would be 5 ms (5 seconds is 5000)
RReadWriteLock::__construct(): Argument #2 ($options) option "ttl" is in milliseconds and must be at least 100: 5 would be 5 ms (5 seconds is 5000)
RLock::__construct(): Argument #2 ($options) option "ttl" is in milliseconds and must be at least 100: 99 would be 99 ms (99 seconds is 99000)
bool(true)
RLock::extend(): Argument #1 ($ttlMs) is in milliseconds and must be at least 100: 5 would be 5 ms (5 seconds is 5000)
taken
RSemaphore::extend(): Argument #1 ($ttlMs) is in milliseconds and must be at least 100: 30 would be 30 ms (30 seconds is 30000)
RLock::extend(): Argument #1 ($ttlMs) is in milliseconds and must be at least 100: 1 would be 1 ms (1 second is 1000)
