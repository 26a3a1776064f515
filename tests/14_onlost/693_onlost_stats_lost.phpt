--TEST--
onLost(): a hold the watchdog finds lost is counted once in the statistics (rlock_status()), as it is found, before any call on the lock: not again by the unlock() that returns false after, nor by the object's free; a loss an extend() or a semaphore's release() finds is counted once too
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
rlock.stats_keys=64
--FILE--
<?php
require __DIR__ . '/../onlost.inc';
$o = rlock_test_options(['ttl' => 300 * rlock_test_slow(), 'watchdog' => true]);
$lostOf = fn (object $l): int => rlock_status()['keys'][$l->key()]['lost'] ?? -1;

$a = (new RLock('a', $o))->onLost(function (RLock $l) use ($lostOf) {
    $GLOBALS['lost'][] = 'a: counted when told: ' . $lostOf($l);
});
var_dump($a->lock());
rlock_test_cmd('DEL', $a->key());
var_dump(rlock_test_spin(1), $a->unlock(), $lostOf($a));

// freed without a call after its loss: counted once
$b = (new RLock('b', $o))->onLost(rlock_test_on_lost('b'));
var_dump($b->lock());
$key = $b->key();
rlock_test_cmd('DEL', $key);
var_dump(rlock_test_spin(2));
unset($b);
echo "b: ", rlock_status()['keys'][$key]['lost'], "\n";

// without the watchdog: the extend() that finds it gone counts it
$c = new RLock('c', rlock_test_options(['ttl' => 10000]));
var_dump($c->lock());
rlock_test_cmd('DEL', $c->key());
var_dump($c->extend(), $c->unlock(), $lostOf($c));

$s = (new RSemaphore('s', 2, $o))->onLost(rlock_test_on_lost('s'));
var_dump($s->acquire());
rlock_test_cmd('DEL', rlock_test_companion($o['prefix'] . 's', 'semaphore'));
var_dump(rlock_test_spin(3), $s->release());
echo "s: ", rlock_status()['keys'][$o['prefix'] . 's']['lost'] ?? var_export(array_keys(rlock_status()['keys']), true), "\n";
echo "pool: ", rlock_status()['lost'], "\n";
var_dump($GLOBALS['lost']);
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
int(1)
bool(true)
bool(true)
b: 1
bool(true)
bool(false)
bool(false)
int(1)
bool(true)
bool(true)
bool(false)
s: 1
pool: 4
array(3) {
  [0]=>
  string(23) "a: counted when told: 1"
  [1]=>
  string(1) "b"
  [2]=>
  string(1) "s"
}
