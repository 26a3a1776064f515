--TEST--
onLost(): a callback's exception that surfaces right after an internal call whose result a string being built takes next ("x{$o->m()}y"), frees none of that string's parts but those it has: before, the engine's handling freed the part the string had not taken yet, what an earlier string had left in its place (a string still in use lost a reference each time)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
max_execution_time=300
--FILE--
<?php
require __DIR__ . '/../onlost.inc';
// a() leaves $s in the parts of its string; b(), called after it in the same place with the
// same frame, builds its string in the same slots: the callback is due after its internal call
// (offsetGet(), an interned string), before the part that call gives is added
$s = str_repeat('s', 64);
$keep = array_fill(0, 1000, $s);
function a(string $s, ?string $u): ?string
{
    $u = "{$s}{$s}{$s}{$s}";
    return null;
}
function b(ArrayObject $ao, string $s): string
{
    return "x{$ao->offsetGet(0)}y{$s}";
}
$ao = new ArrayObject(['interned']);
$o = rlock_test_options(['ttl' => 300 * rlock_test_slow(), 'watchdog' => true]);
$l = (new RLock('k', $o))->onLost(function () {
    throw new RuntimeException('lost');
});
$lost = rlock_test_lose_while($l, 24, function () use ($ao, $s) {
    while (true) {
        a($s, null);
        b($ao, $s);
    }
});
echo "lost $lost times\n";
debug_zval_dump($s);
?>
--EXPECT--
lost 24 times
string(64) "ssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssss" refcount(1002)
