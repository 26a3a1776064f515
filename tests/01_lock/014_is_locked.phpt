--TEST--
isLocked() says whether anyone holds the key, asked of Redis
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$l = new RLock('locked', rlock_test_options());
$other = new RLock('locked', rlock_test_options());
echo "free: "; var_dump($l->isLocked());
var_dump($l->lock());
echo "we hold it: "; var_dump($l->isLocked(), $other->isLocked());
var_dump($l->unlock());
echo "released: "; var_dump($l->isLocked());
rlock_test_cmd('SET', $l->key(), 'someone-else', 'PX', '20000');
echo "someone else: "; var_dump($l->isLocked());
rlock_test_cmd('DEL', $l->key());
echo "deleted: "; var_dump($l->isLocked());
?>
--EXPECT--
free: bool(false)
bool(true)
we hold it: bool(true)
bool(true)
bool(true)
released: bool(false)
someone else: bool(true)
deleted: bool(false)
