--TEST--
A 1 MiB key works for every call, waiting included
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['reentrant' => false, 'fencing' => true]);
$k = str_repeat("\0lock-key!\xf0\x9f\x94\x92--", 1024 * 1024 / 16);
var_dump(strlen($k));
$l = new RLock($k, $o);
var_dump(strlen($l->key()) === strlen($o['prefix']) + 1024 * 1024);
var_dump($l->tryLock(), is_int($l->fencingToken()));
var_dump(rlock_test_cmd('GET', $l->key()) === $l->token());
var_dump($l->isLocked(), $l->isAcquired(), $l->ttl() > 0, $l->extend(10000));
$other = new RLock($k, $o);
var_dump($other->tryLock(), $other->lock(200));
var_dump($l->unlock(), $l->isLocked());
var_dump($other->lock(1000), $other->fencingToken() > 0);
var_dump(RLock::release($k, $other->token(), $o), $other->isAcquired());
var_dump($l->synchronized(fn() => 'done'));
$tag = fn (string $role) => rlock_test_companion($l->key(), $role);
var_dump(rlock_test_cmd('EXISTS', $l->key(), $tag('waiters'), $tag('grants')));
rlock_test_cmd('DEL', $tag('fence'));
?>
--EXPECT--
int(1048576)
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
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
bool(false)
string(4) "done"
int(0)
