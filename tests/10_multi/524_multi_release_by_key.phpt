--TEST--
RLock::multi(): RLock::release() takes the key() of a lock over several keys, with its token, and releases every key of it (a job handed the lock); its key is no key of one lock, and another token releases nothing
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options();
$m = RLock::multi(['a', 'b'], $o);
var_dump($m->tryLock(), RLock::release($m->key(), str_repeat('0', 32), $o), $m->isAcquired());
var_dump(RLock::release($m->key(), $m->token(), $o), $m->isAcquired());
$a = new RLock('a', $o);
$b = new RLock('b', $o);
var_dump($a->tryLock(), $b->tryLock(), $a->unlock(), $b->unlock());
?>
--EXPECT--
bool(true)
bool(false)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
