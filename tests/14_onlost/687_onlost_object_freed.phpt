--TEST--
onLost(): an object freed before its callback ran is not called back, and nothing of it is read (valgrind): two locks lost at once, the first callback frees the other lock
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../onlost.inc';
$o = rlock_test_options(['ttl' => 300 * rlock_test_slow(), 'watchdog' => true]);
// a's callback is called first (callbacks run in the order they were set)
$a = (new RLock('a', $o))->onLost(function () {
    $GLOBALS['lost'][] = 'a frees b';
    unset($GLOBALS['b']);
});
$GLOBALS['b'] = (new RLock('b', $o))->onLost(rlock_test_on_lost('b'));
var_dump($GLOBALS['b']->lock(), $a->lock());
rlock_test_cmd('DEL', $a->key(), $GLOBALS['b']->key());
var_dump(rlock_test_spin(1));
usleep(300000 * rlock_test_slow());
var_dump($GLOBALS['lost'], isset($GLOBALS['b']));

?>
--EXPECT--
bool(true)
bool(true)
bool(true)
array(1) {
  [0]=>
  string(9) "a frees b"
}
bool(false)
