--TEST--
onLost(): locks lost together each have their callback run, even after one threw; the exceptions surface together where the code runs, the later one's getPrevious() the earlier
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
max_execution_time=300
--FILE--
<?php
require __DIR__ . '/../onlost.inc';
$o = rlock_test_options(['ttl' => 300 * rlock_test_slow(), 'watchdog' => true]);
$c = (new RLock('c', $o))->onLost(function () {
    throw new RuntimeException('c lost');
});
$d = (new RLock('d', $o))->onLost(function () {
    throw new LogicException('d lost');
});
$e = (new RLock('e', $o))->onLost(rlock_test_on_lost('e'));
var_dump($c->lock(), $d->lock(), $e->lock());
rlock_test_cmd('DEL', $c->key(), $d->key(), $e->key());
try {
    while (true) {
    }
} catch (Exception $ex) {
    for (; $ex; $ex = $ex->getPrevious()) {
        echo get_class($ex), ': ', $ex->getMessage(), "\n";
    }
}
var_dump($GLOBALS['lost']);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
LogicException: d lost
RuntimeException: c lost
array(1) {
  [0]=>
  string(1) "e"
}
