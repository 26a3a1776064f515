--TEST--
watchdog: unlock() and extend() of a lost lock return false and leave the new owner's key alone; the next acquire resets lost()
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../watchdog.inc';
$l = new RLock('a', rlock_test_options(['ttl' => 300, 'watchdog' => true]));
var_dump($l->tryLock(), $l->tryLock());  /* two nested holds */
rlock_test_cmd('DEL', $l->key());
rlock_test_cmd('SET', $l->key(), 'other', 'PX', '5000');
rlock_test_sleep(250);
var_dump($l->extend());
var_dump($l->unlock(), $l->unlock(), $l->token(), $l->lost());
var_dump(rlock_test_cmd('GET', $l->key()));
rlock_test_cmd('DEL', $l->key());
var_dump($l->tryLock(), $l->lost());
var_dump($l->unlock(), $l->lost());
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
bool(false)
bool(false)
NULL
bool(true)
string(5) "other"
bool(true)
bool(false)
bool(true)
bool(false)
