--TEST--
tryLock() takes a free key, returns false at once on a held one without queueing
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$l = new RLock('try', rlock_test_options(['wait' => 30000]));
$tag = fn (string $role) => rlock_test_companion($l->key(), $role);

rlock_test_cmd('SET', $l->key(), 'someone-else', 'PX', '20000');
$t = microtime(true);
var_dump($l->tryLock());     // ignores option "wait" (it would wait out the 20 s lease)
var_dump((microtime(true) - $t) * 1000 < 1000 * $slow);
var_dump($l->token());
var_dump(rlock_test_cmd('GET', $l->key()));
var_dump(rlock_test_cmd('EXISTS', $tag('waiters'), $tag('grants')));

rlock_test_cmd('DEL', $l->key());
var_dump($l->tryLock());
var_dump(rlock_test_cmd('GET', $l->key()) === $l->token());
var_dump($l->unlock());
?>
--EXPECT--
bool(false)
bool(true)
NULL
string(12) "someone-else"
int(0)
bool(true)
bool(true)
bool(true)
