--TEST--
onLost(): an exception $fn throws surfaces where the code runs: a while (true) loop inside try gets it in its catch, and goes on from there
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
$l = new RLock('a', $o);
$l->onLost(function (RLock $lock) {
    throw new RuntimeException('lost ' . $lock->key());
});
var_dump($l->lock());
rlock_test_cmd('DEL', $l->key());
$x = 0;
try {
    while (true) {
        $x++;
    }
} catch (RuntimeException $e) {
    echo "caught: ", $e->getMessage() === 'lost ' . $l->key() ? 'lost <key>' : $e->getMessage(), "\n";
    echo "thrown into the loop: ", var_export($e->getTrace()[0]["line"] === __LINE__ - 4, true), "\n";
    echo "the loop ran: ", var_export($x > 0, true), "\n";
}
var_dump($l->lost(), $l->unlock());
echo "done\n";
?>
--EXPECT--
bool(true)
caught: lost <key>
thrown into the loop: true
the loop ran: true
bool(true)
bool(false)
done
