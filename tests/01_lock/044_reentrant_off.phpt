--TEST--
reentrant => false: a second acquire of a held key fails like anyone else's, even by the same object
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['reentrant' => false]);
$a = new RLock('nr', $o);
$b = new RLock('nr', $o);
var_dump($a->lock());
var_dump($b->tryLock(), $b->lock(200), $b->token());
var_dump($a->tryLock());
var_dump($a->unlock(), rlock_test_cmd('EXISTS', $a->key()));
var_dump($b->tryLock(), $a->tryLock(), $b->unlock());
?>
--EXPECT--
bool(true)
bool(false)
bool(false)
NULL
bool(false)
bool(true)
int(0)
bool(true)
bool(false)
bool(true)
