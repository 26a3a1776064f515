--TEST--
isAcquired() asks Redis whether the key still holds our token, not what we remember
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$l = new RLock('acq', rlock_test_options());
echo "before: "; var_dump($l->isAcquired());
var_dump($l->lock());
echo "held: "; var_dump($l->isAcquired());
rlock_test_cmd('DEL', $l->key());
echo "deleted behind our back: "; var_dump($l->isAcquired());
var_dump($l->unlock());

var_dump($l->lock());
rlock_test_cmd('SET', $l->key(), 'someone-else', 'PX', '20000');
echo "taken over: "; var_dump($l->isAcquired());
var_dump($l->unlock());
rlock_test_cmd('DEL', $l->key());

var_dump($l->lock());
$token = $l->token();
rlock_test_cmd('DEL', $l->key());
rlock_test_cmd('SET', $l->key(), $token, 'PX', '20000');
echo "same token written back: "; var_dump($l->isAcquired());
var_dump($l->unlock());
echo "after unlock: "; var_dump($l->isAcquired());
?>
--EXPECT--
before: bool(false)
bool(true)
held: bool(true)
deleted behind our back: bool(false)
bool(false)
bool(true)
taken over: bool(false)
bool(false)
bool(true)
same token written back: bool(true)
bool(true)
after unlock: bool(false)
