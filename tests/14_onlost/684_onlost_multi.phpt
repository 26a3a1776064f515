--TEST--
onLost() on RLock::multi(): one of its keys taken away and $fn($lock) runs at the next opcode, once; unlock() gives back the keys still ours
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../onlost.inc';
$o = rlock_test_options(['ttl' => 300 * rlock_test_slow(), 'watchdog' => true]);
$p = $o['prefix'];
$m = RLock::multi(['a', 'b', 'c'], $o);
$m->onLost(rlock_test_on_lost('multi', $m));
var_dump($m->lock());
rlock_test_cmd('SET', "{$p}b", 'someone else');
var_dump(rlock_test_spin(1), $GLOBALS['lost']);
var_dump($m->unlock(), rlock_test_cmd('EXISTS', "{$p}a", "{$p}c"), rlock_test_cmd('GET', "{$p}b"));
?>
--EXPECT--
bool(true)
bool(true)
array(1) {
  [0]=>
  string(5) "multi"
}
bool(false)
int(0)
string(12) "someone else"
