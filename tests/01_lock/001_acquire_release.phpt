--TEST--
tryLock() takes a free key with our token and the ttl; unlock() deletes it
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$l = new RLock('a', rlock_test_options(['ttl' => 5000]));
var_dump($l->tryLock());
var_dump(rlock_test_cmd('GET', $l->key()) === $l->token());
$pttl = rlock_test_cmd('PTTL', $l->key());
var_dump($pttl > 4000 && $pttl <= 5000);
var_dump($l->unlock());
var_dump(rlock_test_cmd('EXISTS', $l->key()));
var_dump($l->token());
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
NULL
