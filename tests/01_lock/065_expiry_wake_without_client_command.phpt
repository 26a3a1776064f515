--TEST--
A waiter whose holder expired takes the key at the expiry even when its ACL user may not run CLIENT (the wake is a push on its own list)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$user = 'rlock-test-065-' . getmypid();
var_dump(rlock_test_cmd('ACL', 'SETUSER', $user, 'reset', 'on', '>Secret-065', '~*', '+@all', '-client'));
register_shutdown_function(fn () => rlock_test_cmd('ACL', 'DELUSER', $user));
$dsn = 'redis://' . $user . ':Secret-065@' . RLOCK_TEST_HOST . ':' . RLOCK_TEST_PORT;

$l = new RLock('expiring', rlock_test_options(['server' => $dsn, 'ttl' => 5000, 'persistent' => false]));
// a holder that crashed: nobody will release it, its lease ends in 400 ms
// (the clock read before the SET: the lease ends 400 ms after it at the earliest)
$t = microtime(true);
rlock_test_cmd('SET', $l->key(), 'crashed-holder', 'PX', '400');
var_dump($l->lock(20000));
$ms = (microtime(true) - $t) * 1000;
// before: CLIENT UNBLOCK was refused, and the waiter slept to its deadline (20 s)
var_dump($ms >= 390, $ms < 2500 * $slow);
var_dump(rlock_test_cmd('GET', $l->key()) === $l->token());
var_dump($l->unlock());
$tag = fn (string $role) => rlock_test_companion($l->key(), $role);
// nothing left behind: the wake was popped by the waiter it woke
var_dump(rlock_test_cmd('EXISTS', $l->key(), $tag('waiters'), $tag('grants'), $tag('self-') . $l->token()));
var_dump(rlock_test_cmd('KEYS', $tag('self-*')));
?>
--EXPECT--
string(2) "OK"
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
array(0) {
}
