--TEST--
lock($waitMs) on a key someone else holds blocks about $waitMs, returns false and leaves no waiter behind
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$l = new RLock('busy', rlock_test_options());
rlock_test_cmd('SET', $l->key(), 'someone-else', 'PX', '20000');

$t = microtime(true);
var_dump($l->lock(400));
$ms = (microtime(true) - $t) * 1000;
var_dump($ms >= 350, $ms < 3000 * $slow);
var_dump($l->token(), $l->isAcquired());
var_dump(rlock_test_cmd('GET', $l->key()));
// the timed-out waiter is no longer counted, and nothing was granted
$tag = fn (string $role) => rlock_test_companion($l->key(), $role);
var_dump(rlock_test_cmd('EXISTS', $tag('waiters'), $tag('grants')));
?>
--EXPECT--
bool(false)
bool(true)
bool(true)
NULL
bool(false)
string(12) "someone-else"
int(0)
