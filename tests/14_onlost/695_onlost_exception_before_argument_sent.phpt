--TEST--
onLost(): a callback's exception that surfaces at the jump of a ternary, whose target sends the argument of a call not made yet (f($c ? ... : 2)), frees no argument that was never sent: before, the engine's handling freed what an earlier call had left in that argument's slot (an object still in use lost a reference each time, then was freed: a use-after-free the API fuzz found)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
max_execution_time=300
--FILE--
<?php
require __DIR__ . '/../onlost.inc';
// $obj, held here and in $keep: a reference taken from it shows in its refcount (the 1000
// keep it alive, so that a test that fails does so by its output, not by a crash)
$obj = new stdClass();
$keep = array_fill(0, 1000, $obj);
function g(object $x): void
{
}
function f(int $a): int
{
    return $a;
}
// g($obj) leaves $obj in the slot f's argument takes next; the ternary's true branch, a long
// run of opcodes without a jump or a call, is where the callback's exception is most likely
// due, surfacing at the jump to f's SEND
$long = rlock_test_long_run();
$spin = eval("return function (object \$obj): void {
    \$t = true;
    \$a = 1;
    while (true) {
        g(\$obj);
        f(\$t ? $long : 2);
    }
};");
$o = rlock_test_options(['ttl' => 300 * rlock_test_slow(), 'watchdog' => true]);
$l = (new RLock('k', $o))->onLost(function () {
    throw new RuntimeException('lost');
});
$lost = rlock_test_lose_while($l, 24, fn () => $spin($obj));
echo "lost $lost times\n";
ob_start();
debug_zval_dump($obj);
echo strstr(ob_get_clean(), 'refcount');
?>
--EXPECT--
lost 24 times
refcount(1002){
}
