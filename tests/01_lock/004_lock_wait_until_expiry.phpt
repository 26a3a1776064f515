--TEST--
lock($waitMs) takes the key once the holder's lease runs out, well before $waitMs
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$l = new RLock('expiring', rlock_test_options(['ttl' => 5000]));
// a holder that crashed: nobody will release it, its lease ends in 400 ms
// (the clock read before the SET: the lease ends 400 ms after it at the earliest)
$t = microtime(true);
rlock_test_cmd('SET', $l->key(), 'crashed-holder', 'PX', '400');
var_dump($l->lock(10000));
$ms = (microtime(true) - $t) * 1000;
var_dump($ms >= 390, $ms < 2500 * $slow);
var_dump(rlock_test_cmd('GET', $l->key()) === $l->token());
$pttl = rlock_test_cmd('PTTL', $l->key());
var_dump($pttl > 3000 && $pttl <= 5000);
var_dump($l->unlock());
$tag = fn (string $role) => rlock_test_companion($l->key(), $role);
var_dump(rlock_test_cmd('EXISTS', $l->key(), $tag('waiters'), $tag('grants')));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
