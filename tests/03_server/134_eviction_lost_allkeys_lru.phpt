--TEST--
Eviction (maxmemory, allkeys-lru): a held lock Redis evicts shows as lost (isAcquired(), unlock() false, lost()), never as a hold reentrancy vouches for once another process took the key
--EXTENSIONS--
rlock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
if (!is_file(ini_get('extension_dir') . '/rlock.so')) die('skip rlock.so not in extension_dir');
?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../child.inc';
$srv = rlock_test_own_server('--maxmemory 4mb --maxmemory-policy allkeys-lru');
$cmd = $srv['cmd'];
$o = rlock_test_options(['server' => $srv['dsn'], 'ttl' => 30000]);

$a = new RLock('evicted', $o);
var_dump($a->lock());
$key = $a->key();

// write until Redis evicts the lock key (TYPE does not touch the key's LRU clock)
$big = str_repeat('x', 65536);
for ($i = 0; $cmd('TYPE', $key) !== 'none' && $i < 100000; $i++) {
    $cmd('SET', "filler:$i", $big);
}
echo "evicted: "; var_dump($cmd('TYPE', $key) === 'none', preg_match('/^evicted_keys:[1-9]/m', $cmd('INFO', 'stats')) === 1);
$cmd('FLUSHDB');  // room again: what follows must not evict anything more

// another process takes the key, and keeps it past its end
$child = rlock_test_child('$l = new RLock("evicted", ["auto_release" => false] + $o);
echo $l->tryLock() ? "locked " . $l->token() . "\n" : "not locked\n";', $o);
$theirs = rlock_test_locked($child);
echo "another process took it: ", strlen($theirs) === 32 ? 'yes' : $theirs, "\n";

// this process still has its object and its registry entry, and its lease by its clock
echo "isAcquired: "; var_dump($a->isAcquired());
$b = new RLock('evicted', $o);
echo "nested tryLock (another object): "; var_dump($b->tryLock());
echo "nested lock (same object): "; var_dump($a->lock());
echo "unlock: "; var_dump($a->unlock());
echo "lost: "; var_dump($a->lost());
echo "their lock untouched: "; var_dump($cmd('GET', $key) === $theirs);
?>
--EXPECT--
bool(true)
evicted: bool(true)
bool(true)
another process took it: yes
isAcquired: bool(false)
nested tryLock (another object): bool(false)
nested lock (same object): bool(false)
unlock: bool(false)
lost: bool(true)
their lock untouched: bool(true)
