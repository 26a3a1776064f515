--TEST--
unlock() returns false, and touches nothing, when the lock is not (or no longer) ours
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();

echo "never locked:\n";
$l = new RLock('u1', rlock_test_options());
var_dump($l->unlock());

echo "someone else holds it:\n";
$other = new RLock('u2', rlock_test_options());
rlock_test_cmd('SET', $other->key(), 'someone-else', 'PX', '20000');
var_dump($other->unlock());
var_dump(rlock_test_cmd('GET', $other->key()));

echo "taken over after we locked:\n";
$l = new RLock('u3', rlock_test_options());
var_dump($l->lock());
rlock_test_cmd('SET', $l->key(), 'new-owner', 'PX', '20000');
var_dump($l->unlock());
var_dump(rlock_test_cmd('GET', $l->key()));
var_dump($l->token(), $l->unlock());

echo "deleted behind our back:\n";
$l = new RLock('u4', rlock_test_options());
var_dump($l->lock());
rlock_test_cmd('DEL', $l->key());
var_dump($l->unlock());

echo "expired:\n";
$l = new RLock('u5', rlock_test_options(['ttl' => 100]));
var_dump($l->lock());
$deadline = microtime(true) + 5 * $slow;
while (rlock_test_cmd('EXISTS', $l->key()) && microtime(true) < $deadline) {
    usleep(10000);
}
var_dump($l->unlock());
var_dump(rlock_test_cmd('EXISTS', $l->key()));

echo "unlocked twice:\n";
$l = new RLock('u6', rlock_test_options());
var_dump($l->lock(), $l->unlock(), $l->unlock());
?>
--EXPECT--
never locked:
bool(false)
someone else holds it:
bool(false)
string(12) "someone-else"
taken over after we locked:
bool(true)
bool(false)
string(9) "new-owner"
NULL
bool(false)
deleted behind our back:
bool(true)
bool(false)
expired:
bool(true)
bool(false)
int(0)
unlocked twice:
bool(true)
bool(true)
bool(false)
