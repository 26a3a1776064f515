--TEST--
onLost(): a callback's exception that surfaces at a loop's first op, which starts a string from a variable ("$name-$i"), frees none of that string's parts: before, the engine's handling freed its first part, what an earlier string had left there (a string still in use lost a reference each time; PHP 8.4 as 8.2)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
max_execution_time=300
--FILE--
<?php
require __DIR__ . '/../onlost.inc';
// each turn's string leaves $name in its first part; the loop's jump back to the string's
// start is where the callback is most likely due, after the long run of opcodes before it
$name = str_repeat('n', 64);
$keep = array_fill(0, 1000, $name);
$long = rlock_test_long_run();
$spin = eval("return function (string \$name): void {
    \$a = 1;
    \$i = 0;
    while (true) {
        \$s = \"\$name-\$i\";
        \$i = $long;
    }
};");
$o = rlock_test_options(['ttl' => 300 * rlock_test_slow(), 'watchdog' => true]);
$l = (new RLock('k', $o))->onLost(function () {
    throw new RuntimeException('lost');
});
$lost = rlock_test_lose_while($l, 24, fn () => $spin($name));
echo "lost $lost times\n";
debug_zval_dump($name);
?>
--EXPECT--
lost 24 times
string(64) "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn" refcount(1002)
