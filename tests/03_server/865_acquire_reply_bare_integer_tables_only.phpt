--TEST--
Only the mutex's acquire script answers "not acquired" with the key's PTTL alone: a bare integer from the semaphore's, the read-write lock's or RLock::multi()'s acquire script (which answer tables only) is an unexpected reply, not a "not acquired" to wait on
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../fake_redis.inc';
// every script answers 250 (what the mutex's answers for a key held 250 ms more), anything
// else (a BLPOP) 0
$fake = rlock_fake_redis(fn (array $argv) => str_starts_with(strtoupper($argv[0]), 'EVAL') ? ":250\r\n" : ":0\r\n");
$o = ['server' => $fake['dsn'], 'auto_release' => false];
$cases = [
    'semaphore tryAcquire' => fn () => (new RSemaphore('s', 2, $o))->tryAcquire(),
    'semaphore acquire, a wait' => fn () => (new RSemaphore('s', 2, $o))->acquire(1, 200),
    'read tryLock' => fn () => (new RReadWriteLock('rw', $o))->readLock()->tryLock(),
    'read lock, a wait' => fn () => (new RReadWriteLock('rw', $o))->readLock()->lock(200),
    'write tryLock' => fn () => (new RReadWriteLock('rw', $o))->writeLock()->tryLock(),
    'write lock, a wait' => fn () => (new RReadWriteLock('rw', $o))->writeLock()->lock(200),
    'multi tryLock' => fn () => RLock::multi(['a', 'b'], $o)->tryLock(),
    'multi lock, a wait' => fn () => RLock::multi(['a', 'b'], $o)->lock(200),
    // the mutex's script may: its key held, not acquired (fencing: the script, not a SET)
    'mutex tryLock' => fn () => (new RLock('k', $o + ['fencing' => true]))->tryLock(),
];
foreach ($cases as $what => $f) {
    try {
        $got = var_export($f(), true);
    } catch (RLockException $e) {
        $got = get_class($e) . ': ' . str_replace($fake['addr'], 'FAKE', $e->getMessage());
    }
    echo "$what: $got\n";
}
$fake['stop']();
?>
--EXPECT--
semaphore tryAcquire: RLockException: Redis FAKE: unexpected reply to the acquire script
semaphore acquire, a wait: RLockException: Redis FAKE: unexpected reply to the acquire script
read tryLock: RLockException: Redis FAKE: unexpected reply to the acquire script
read lock, a wait: RLockException: Redis FAKE: unexpected reply to the acquire script
write tryLock: RLockException: Redis FAKE: unexpected reply to the acquire script
write lock, a wait: RLockException: Redis FAKE: unexpected reply to the acquire script
multi tryLock: RLockException: Redis FAKE: unexpected reply to the acquire script
multi lock, a wait: RLockException: Redis FAKE: unexpected reply to the acquire script
mutex tryLock: false
