--TEST--
rlock_status()'s times come rounded to the microsecond (p50_ms, p99_ms of waits and round trips), never as 34.69387755102
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
rlock.stats_keys=16
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['reentrant' => false]);
$l = new RLock('rounded', $o);
for ($i = 0; $i < 49; $i++) {     // 49 waits (of about 0), 49 * 2 round trips: quantiles fall inside buckets
    $l->lock(1000);
    $l->unlock();
}
$s = rlock_status();
// (a function, not a closure that calls itself through a reference: a cycle left at exit)
function times(array $a, string $path, array &$times): void
{
    foreach ($a as $k => $v) {
        if (is_array($v)) {
            times($v, "$path.$k", $times);
        } elseif (is_float($v)) {
            $times["$path.$k"] = $v;
        }
    }
}
$times = [];
times($s, '', $times);
$unrounded = array_filter($times, fn ($v) => abs($v * 1000 - round($v * 1000)) > 1e-6);
echo count($times) > 10 ? "times found\n" : "few times\n";
echo "not to the microsecond: ", $unrounded ? json_encode($unrounded) : 'none', "\n";
?>
--EXPECT--
times found
not to the microsecond: none
