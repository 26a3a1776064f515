--TEST--
Redlock: restore() takes the validity a quorum's lease leaves less the clock drift, as the acquire does: a restored hold's ttl() never promised more than the holder's own (it claimed the quorum's PTTL in full, about 1% of the lease past what Redlock vouches for)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$a = rlock_test_own_server();
$b = rlock_test_own_server();
$o = ['servers' => [RLOCK_TEST_DSN, $a['dsn'], $b['dsn']], 'ttl' => 10000, 'prefix' => rlock_test_options()['prefix']];
$holder = new RLock('x', $o);
var_dump($holder->lock());
$restored = new RLock('x', $o);
var_dump($restored->restore($holder->token()));
// the lease of 10 s less its drift (10000 / 100 + 2 ms) at most, for either
var_dump($holder->ttl() <= 9898, $restored->ttl() <= 9898, $restored->ttl() > 5000);
var_dump($restored->unlock());
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
