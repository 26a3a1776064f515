--TEST--
RLock::multi: lock() takes every key with one token in one round trip, whatever order they are named in; unlock() gives them all back; the methods act on all the keys
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options();
$p = $o['prefix'];
$m = RLock::multi(['b', 'a'], $o);
var_dump($m->key() === strlen("{$p}a") . ":{$p}a," . strlen("{$p}b") . ":{$p}b,");
var_dump($m->isLocked(), $m->ttl(), $m->token());
var_dump($m->lock(), $m->isAcquired(), $m->isLocked());
var_dump(rlock_test_cmd('GET', "{$p}a") === $m->token(), rlock_test_cmd('GET', "{$p}b") === $m->token());
rlock_test_cmd('PEXPIRE', "{$p}b", '5000');
var_dump($m->ttl() <= 5000 && $m->ttl() > 0);   // the smallest lease
var_dump($m->extend(20000), $m->ttl() > 5000);
// the same keys named in another order are the same lock: reentrant in this process
$again = RLock::multi(['a', 'b'], $o);
var_dump($again->tryLock(), $again->unlock(), $m->isAcquired());
var_dump($m->unlock(), $m->isAcquired(), $m->isLocked(), $m->token());
var_dump(rlock_test_cmd('EXISTS', "{$p}a", "{$p}b"));
var_dump($m->tryLock(), $m->unlock(), $m->unlock());
?>
--EXPECT--
bool(true)
bool(false)
int(-2)
NULL
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(false)
NULL
int(0)
bool(true)
bool(true)
bool(false)
