--TEST--
RReadWriteLock: a reader whose lease is gone from Redis finds it: isAcquired() false, extend() and unlock() false, lost() true
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$rw = new RReadWriteLock('stock', rlock_test_options());
$r = $rw->readLock();
var_dump($r->tryLock(), $r->extend(5000), $r->ttl() > 4000);
// its lease ended (a score in the past, as the server's clock goes)
rlock_test_cmd('ZADD', rlock_test_companion($r->key(), 'read'), 'XX', '1', $r->token());
var_dump($r->isAcquired(), $r->ttl(), $r->extend());
var_dump($r->tryLock(), $r->isAcquired());
rlock_test_cmd('ZREM', rlock_test_companion($r->key(), 'read'), $r->token());
var_dump($r->unlock(), $r->lost());
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(false)
int(-2)
bool(false)
bool(true)
bool(true)
bool(false)
bool(true)
