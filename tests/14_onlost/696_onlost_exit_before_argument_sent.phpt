--TEST--
onLost(): exit() in a callback due at the jump of a ternary, whose target sends the argument of a call not made yet (f($c ? ... : 2)), frees no argument that was never sent as the request unwinds: before, what an earlier call had left in that argument's slot lost a reference (seen in a shutdown function)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
max_execution_time=300
--FILE--
<?php
require __DIR__ . '/../onlost.inc';
// as in 695: $obj is left in the slot of f's argument by g($obj), and the callback is most
// likely due at the end of the ternary's long true branch
$obj = new stdClass();
$keep = array_fill(0, 1000, $obj);
function g(object $x): void
{
}
function f(int $a): int
{
    return $a;
}
$long = rlock_test_long_run();
$spin = eval("return function (object \$obj): void {
    \$t = true;
    \$a = 1;
    while (true) {
        g(\$obj);
        f(\$t ? $long : 2);
    }
};");
register_shutdown_function(function () use ($obj) {
    echo "exited\n";
    ob_start();
    debug_zval_dump($obj);
    echo strstr(ob_get_clean(), 'refcount');
});
$o = rlock_test_options(['ttl' => 300 * rlock_test_slow(), 'watchdog' => true]);
$l = (new RLock('k', $o))->onLost(function () {
    exit();
});
$l->lock();
rlock_test_cmd('DEL', $l->key());
$spin($obj);
?>
--EXPECT--
exited
refcount(1004){
}
