--TEST--
ttl() is the remaining lease in ms as Redis says: -2 without a key, -1 for a key without expiry
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$l = new RLock('ttl', rlock_test_options(['ttl' => 8000]));
var_dump($l->ttl());
var_dump($l->lock());
$t = $l->ttl();
var_dump(is_int($t) && $t > 7000 && $t <= 8000);
var_dump($l->unlock(), $l->ttl());
// not ours: ttl() reports whoever holds the key
rlock_test_cmd('SET', $l->key(), 'someone-else', 'PX', '3000');
$t = $l->ttl();
var_dump($t > 2000 && $t <= 3000);
rlock_test_cmd('SET', $l->key(), 'someone-else');
var_dump($l->ttl());
rlock_test_cmd('DEL', $l->key());
var_dump($l->ttl());
?>
--EXPECT--
int(-2)
bool(true)
bool(true)
bool(true)
int(-2)
bool(true)
int(-1)
int(-2)
