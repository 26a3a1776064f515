--TEST--
onLost(): not called for a hold released normally (unlock(), synchronized(), the object's free), nor for one whose two objects shared it when the one that released it is not the one that held on; nor for a loss unlock() finds before the watchdog does
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../onlost.inc';
$ttl = 300 * rlock_test_slow();
$o = rlock_test_options(['ttl' => $ttl, 'watchdog' => true]);
$a = (new RLock('k', $o))->onLost(rlock_test_on_lost('a'));
var_dump($a->lock(), $a->extend(), $a->unlock());
var_dump($a->synchronized(fn () => 'done'));
$c = (new RLock('c', $o))->onLost(rlock_test_on_lost('c'));
var_dump($c->lock());
unset($c);
// a and b share one hold (reentrant, one context): a lets go of its part, b keeps it
$b = (new RLock('k', $o))->onLost(rlock_test_on_lost('b'));
var_dump($a->lock(), $b->lock(), $a->unlock());
rlock_test_cmd('DEL', $b->key());
var_dump(rlock_test_spin(1));
// the watchdog renews every ttl/3: three more periods pass, nothing else is called
usleep($ttl * 1000);
// a lease that unlock() finds gone first (the watchdog would renew it in 10 s): false, no callback
$d = (new RLock('d', rlock_test_options(['ttl' => 30000, 'watchdog' => true])))->onLost(rlock_test_on_lost('d'));
var_dump($d->lock());
rlock_test_cmd('DEL', $d->key());
var_dump($d->unlock(), $d->lost());
var_dump($GLOBALS['lost']);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
string(4) "done"
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
array(1) {
  [0]=>
  string(1) "b"
}
