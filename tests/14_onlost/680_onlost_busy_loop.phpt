--TEST--
onLost(): the watchdog finds the lease gone (the key deleted by another client) and $fn($lock) runs in a loop that calls nothing, at its next opcode; onLost() returns the lock
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../onlost.inc';
$o = rlock_test_options(['ttl' => 300 * rlock_test_slow(), 'watchdog' => true]);
$l = new RLock('a', $o);
var_dump($l->onLost(rlock_test_on_lost('a', $l)) === $l);
var_dump($l->lock());
rlock_test_cmd('DEL', $l->key());
echo "the loop ended by the callback: ", var_export(rlock_test_spin(1), true), "\n";
var_dump($GLOBALS['lost'], $l->lost(), $l->unlock());
?>
--EXPECT--
bool(true)
bool(true)
the loop ended by the callback: true
array(1) {
  [0]=>
  string(1) "a"
}
bool(true)
bool(false)
