--TEST--
Redlock: extend() heals only while a quorum still holds the lock: when a majority of masters lost the key at once, extend() is false and the masters it set again are given back; a heal with fencing raises the master's lost fencing counter back to the holder's token
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$m = [rlock_test_own_server(), rlock_test_own_server(), rlock_test_own_server()];
$o = ['servers' => array_column($m, 'dsn'), 'ttl' => 20000 * rlock_test_slow(), 'prefix' => 'f748:', 'fencing' => true];
$l = new RLock('k', $o);
var_dump($l->lock());
$key = $l->key();
$fence = rlock_test_companion($key, 'fence');
$exists = fn () => implode(' ', array_map(fn ($s) => $s['cmd']('EXISTS', $key), $m));

// A restarted: healed, its counter back at our token, and the counter lives past our lease
$m[0]['cmd']('FLUSHALL');
var_dump($l->extend());
var_dump($m[0]['cmd']('GET', $fence) === (string) $l->fencingToken(), $m[0]['cmd']('PTTL', $fence) > 20000 * rlock_test_slow());

// A and B restarted together: the lock may have been another's meanwhile; nothing healed stays
$m[0]['cmd']('FLUSHALL');
$m[1]['cmd']('FLUSHALL');
var_dump($l->extend());
echo $exists(), "\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
0 0 1
