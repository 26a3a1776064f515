--TEST--
onLost(): a callback's exception that surfaces right after a call silenced with @ (@f()) gives error_reporting back: before, it stayed silenced for the rest of the request, and later warnings were never shown
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
max_execution_time=300
error_reporting=E_ALL
--FILE--
<?php
require __DIR__ . '/../onlost.inc';
// the callback is most likely due in the silenced internal call (a long one), and surfaces
// after it, at the op that ends the silence
$big = range(1, 20000);
$o = rlock_test_options(['ttl' => 300 * rlock_test_slow(), 'watchdog' => true]);
$l = (new RLock('k', $o))->onLost(function () {
    throw new RuntimeException('lost');
});
$lost = rlock_test_lose_while($l, 24, function () use ($big) {
    while (true) {
        @array_reverse($big);
    }
});
echo "lost $lost times\n";
var_dump(error_reporting() === E_ALL);
echo $undefined;
?>
--EXPECTF--
lost 24 times
bool(true)

Warning: Undefined variable $undefined in %s on line %d
