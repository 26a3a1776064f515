--TEST--
onLost(): the request ends (exit() in a callback) while another lock's callback is due: the request ends cleanly, that callback never runs
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../onlost.inc';
$o = rlock_test_options(['ttl' => 300 * rlock_test_slow(), 'watchdog' => true]);
$a = (new RLock('a', $o))->onLost(function () {
    echo "a: exit\n";
    exit(0);
});
$b = (new RLock('b', $o))->onLost(function () {
    echo "b called\n";
});
var_dump($a->lock(), $b->lock());
rlock_test_cmd('DEL', $a->key(), $b->key());
while (true) {
}
?>
--EXPECTF--
bool(true)
bool(true)
a: exit
