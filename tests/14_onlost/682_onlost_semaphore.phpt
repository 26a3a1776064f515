--TEST--
RSemaphore::onLost(): the watchdog finds our permits gone (the holders' key deleted) and $fn($semaphore) runs at the next opcode, once; held() then says 0 and release() false
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../onlost.inc';
$o = rlock_test_options(['ttl' => 300 * rlock_test_slow(), 'watchdog' => true]);
$s = new RSemaphore('pool', 3, $o);
var_dump($s->onLost(rlock_test_on_lost('pool', $s)) === $s);
var_dump($s->acquire(2));
rlock_test_cmd('DEL', rlock_test_companion($o['prefix'] . 'pool', 'semaphore'));
echo "the loop ended by the callback: ", var_export(rlock_test_spin(1), true), "\n";
var_dump($GLOBALS['lost'], $s->held(), $s->release());
?>
--EXPECT--
bool(true)
bool(true)
the loop ended by the callback: true
array(1) {
  [0]=>
  string(4) "pool"
}
int(0)
bool(false)
