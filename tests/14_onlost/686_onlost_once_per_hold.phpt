--TEST--
onLost(): once per hold lost, whatever the code does after (more loops, unlock(), extend(), lost(), isAcquired()); a new hold of the same object lost is told again; a callback replaced, the new one is called
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../onlost.inc';
$ttl = 300 * rlock_test_slow();
$o = rlock_test_options(['ttl' => $ttl, 'watchdog' => true]);
$l = (new RLock('k', $o))->onLost(rlock_test_on_lost('first'));
var_dump($l->lock(), $l->lock());  // two nested holds: one hold in Redis
rlock_test_cmd('DEL', $l->key());
var_dump(rlock_test_spin(1));
usleep($ttl * 1000);
var_dump($l->lost(), $l->isAcquired(), $l->extend(), $l->unlock(), $l->unlock());
for ($i = 0; $i < 100000; $i++) {
}
var_dump(count($GLOBALS['lost']));
$l->onLost(rlock_test_on_lost('second'));
var_dump($l->lock());
rlock_test_cmd('DEL', $l->key());
var_dump(rlock_test_spin(2));
usleep($ttl * 1000);
var_dump($l->unlock(), $GLOBALS['lost']);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(false)
bool(false)
bool(false)
int(1)
bool(true)
bool(true)
bool(false)
array(2) {
  [0]=>
  string(5) "first"
  [1]=>
  string(6) "second"
}
