--TEST--
RLock::multi: extend() finds one key no longer ours: false, lost, and the keys still ours are given back at once
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['ttl' => 60000]);
$p = $o['prefix'];
$m = RLock::multi(['a', 'b'], $o);
var_dump($m->lock());
rlock_test_cmd('DEL', "{$p}b");
var_dump($m->isAcquired(), $m->isLocked(), $m->ttl());
var_dump($m->extend(), $m->lost(), rlock_test_cmd('EXISTS', "{$p}a"), $m->unlock());
var_dump($m->lock(), $m->unlock());
?>
--EXPECT--
bool(true)
bool(false)
bool(true)
int(-2)
bool(false)
bool(true)
int(0)
bool(false)
bool(true)
bool(true)
