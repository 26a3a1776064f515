--TEST--
The largest table (rlock.stats_keys=65536, full) reads within memory_limit=128M: rlock_status(true) and rlock_metrics() name the 1000 most active keys, the rest summed under "other"
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
pcre.jit=0
rlock.stats_keys=65536
memory_limit=128M
--FILE--
<?php
require __DIR__ . '/../config.inc';
// under valgrind (USE_ZEND_ALLOC=0: no memory limit to prove) an eighth: the same code paths
$n = getenv('USE_ZEND_ALLOC') === '0' ? 8192 : 65536;
$o = rlock_test_options(['reentrant' => false]);
$hot = new RLock('hot', $o);
for ($i = 0; $i < $n; $i++) {
    $l = new RLock("k$i", $o);
    $l->tryLock() || die("tryLock k$i failed\n");
    $l->unlock();
    if ($i % 64 === 0) {
        $hot->lock(1000) || die("hot\n");   // a wait (of 0): a histogram for this key
        $hot->unlock();
    }
}
for ($i = 0; $i < 2000; $i++) {
    (new RRateLimiter("r$i", 10, 60000, array_diff_key($o, ['reentrant' => 1])))->tryAcquire();
}
$s = rlock_status(true);
echo "tracked most of the keys: ", var_export($s["table"]["tracked"] > $n * 0.8, true), "\n";
echo "named: ", count($s['keys']), " keys, ", count($s['ratelimit']['limiters']), " limiters\n";
echo "the hot key first: ", var_export(array_key_first($s['keys']) === $hot->key(), true), "\n";
echo "keys + other = pool: ", var_export(array_sum(array_column($s['keys'], 'acquires')) + $s['other']['acquires'] === $s['acquires'], true), "\n";
echo "limiters + other = all: ", var_export(array_sum(array_column($s['ratelimit']['limiters'], 'admitted'))
    + $s['ratelimit']['other']['admitted'] === 2000, true), "\n";
unset($s);
$m = rlock_metrics();
echo "metrics: under 4 MB: ", var_export(strlen($m) < 4 << 20, true), ", other rows: ",
    preg_match_all('/^rlock_acquires_total\{key="other",kind="other"\} \d+$/m', $m), "\n";
echo "a wait histogram for the key that waited, none for those that did not: ",
    var_export(str_contains($m, 'rlock_wait_seconds_count{key="' . $hot->key() . '",kind="lock"}')
        && !preg_match('/^rlock_wait_seconds_count\{key="[^"]*k\d+"/m', $m), true), "\n";
echo "peak within 128M: ", var_export(memory_get_peak_usage() < 128 << 20, true), "\n";
?>
--EXPECT--
tracked most of the keys: true
named: 1000 keys, 1000 limiters
the hot key first: true
keys + other = pool: true
limiters + other = all: true
metrics: under 4 MB: true, other rows: 1
a wait histogram for the key that waited, none for those that did not: true
peak within 128M: true
