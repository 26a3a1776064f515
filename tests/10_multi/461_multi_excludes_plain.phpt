--TEST--
RLock::multi and new RLock on one of its keys exclude each other (the same Redis key; the plain lock held by another process, or by a Fiber of this one), and a multi lock takes all of its keys or none
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
$plain = new RLock('b', $o);
$m = RLock::multi(['a', 'b', 'c'], $o);
var_dump($plain->key() === "{$p}b");
// b held by another: the multi lock takes none of its keys, not even a and c
rlock_test_cmd('SET', "{$p}b", 'someone-else', 'PX', '60000');
var_dump($m->tryLock(), $m->lock(100), rlock_test_cmd('EXISTS', "{$p}a", "{$p}c"));
rlock_test_cmd('DEL', "{$p}b");
var_dump($m->tryLock());
// another process' plain lock on b (not this one's: it would be another kind, not reentrant)
var_dump(rlock_test_cmd('SET', "{$p}b", 'someone-else', 'NX'));
// a plain lock on b in another context of this process (a Fiber, suspended holding it)
$f = new Fiber(function () use ($plain) {
    Fiber::suspend($plain->tryLock());
    return $plain->unlock();
});
var_dump($m->unlock(), $f->start(), $m->tryLock(), rlock_test_cmd('EXISTS', "{$p}a", "{$p}c"));
$f->resume();
var_dump($f->getReturn(), $m->tryLock(), $m->unlock());
?>
--EXPECT--
bool(true)
bool(false)
bool(false)
int(0)
bool(true)
NULL
bool(true)
bool(true)
bool(false)
int(0)
bool(true)
bool(true)
bool(true)
