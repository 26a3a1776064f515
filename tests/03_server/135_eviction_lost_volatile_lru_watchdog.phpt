--TEST--
Eviction (maxmemory, volatile-lru; lock keys carry a TTL): the watchdog finds the evicted lock gone and marks it lost; unlock() is false and leaves the next owner's lock alone
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../watchdog.inc';
$srv = rlock_test_own_server('--maxmemory 4mb --maxmemory-policy volatile-lru');
$cmd = $srv['cmd'];
$o = rlock_test_options(['server' => $srv['dsn'], 'ttl' => 3000, 'watchdog' => true]);

$a = new RLock('evicted', $o);
var_dump($a->lock());
$key = $a->key();

// write keys with a TTL until Redis evicts the lock key (TYPE does not touch its LRU clock)
$big = str_repeat('x', 65536);
for ($i = 0; $cmd('TYPE', $key) !== 'none' && $i < 100000; $i++) {
    $cmd('SET', "filler:$i", $big, 'PX', '600000');
}
echo "evicted: "; var_dump($cmd('TYPE', $key) === 'none');
$cmd('FLUSHDB');  // room again: what follows must not evict anything more

// the next renewal (every ttl/3 = 1 s) finds it gone; awaited up to 10 s
for ($deadline = microtime(true) + 10; !$a->lost() && microtime(true) < $deadline;) {
    usleep(20000);
}
echo "lost: "; var_dump($a->lost());
echo "isAcquired: "; var_dump($a->isAcquired());

// the key is free: another object takes it afresh, with a token of its own
$b = new RLock('evicted', $o);
echo "tryLock (another object): "; var_dump($b->tryLock(), $b->token() !== null && $b->token() !== $a->token());
echo "unlock of the lost one: "; var_dump($a->unlock());
echo "the new lock untouched: "; var_dump($cmd('GET', $key) === $b->token());
var_dump($b->unlock());
?>
--EXPECT--
bool(true)
evicted: bool(true)
lost: bool(true)
isAcquired: bool(false)
tryLock (another object): bool(true)
bool(true)
unlock of the lost one: bool(false)
the new lock untouched: bool(true)
bool(true)
