--TEST--
Statistics count each rate limiter's decisions: admitted and refused (tryAcquire(), acquire(), all(): the limiters that refused), acquire()'s sleeps; apart from the locks' numbers, in rlock_status() and rlock_metrics(), zeroed by rlock_status_reset()
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
pcre.jit=0
rlock.stats_keys=16
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options();
$p = $o['prefix'];
$slow = rlock_test_slow();
$a = new RRateLimiter('a', 2, 60000, $o);
var_dump($a->tryAcquire(), $a->tryAcquire(), $a->tryAcquire());        // 2 admitted, 1 refused
$b = new RRateLimiter('b', 1, 200, $o);
var_dump($b->tryAcquire(), $b->acquire(1, 5000 * $slow));              // the second sleeps ~200 ms
var_dump($b->acquire(1, 0));                                           // refused at once: no wait given
$c = new RRateLimiter('c', 100, 60000, $o);
var_dump(RRateLimiter::all([$a, $c]));                                 // refused by a alone
$d = new RRateLimiter('d', 100, 60000, $o);
var_dump(RRateLimiter::all([$c, $d]));                                 // admitted by both

$s = rlock_status();
$show = fn (string $what, array $r) => print("$what: admitted={$r['admitted']} refused={$r['refused']} waits={$r['waits']} wait.count={$r['wait']['count']}\n");
$l = $s['ratelimit']['limiters'];
$show('a', $l[$p . 'a']);
$show('c', $l[$p . 'c']);
echo "b: admitted={$l[$p . 'b']['admitted']} refused={$l[$p . 'b']['refused']} waits={$l[$p . 'b']['waits']}, slept about 200 ms: ",
    var_export($l[$p . 'b']['wait']['max_ms'] >= 150, true), "\n";
echo "totals: ", $s['ratelimit']['admitted'] + $s['ratelimit']['refused'], " decisions, refused {$s['ratelimit']['refused']} >= 3: ",
    var_export($s['ratelimit']['refused'] >= 3, true), ", waits {$s['ratelimit']['waits']}\n";
echo "rows add up: ", var_export(array_sum(array_column($l, 'admitted')) + $s['ratelimit']['other']['admitted'] === $s['ratelimit']['admitted'], true), "\n";
echo "not the locks': acquires={$s['acquires']} contended={$s['contended']} keys=", count($s['keys']), "\n";
echo "without keys: ", implode(' ', array_keys(rlock_status(false)['ratelimit'])), "\n";

$m = rlock_metrics();
foreach (explode("\n", $m) as $line) {
    if (preg_match('/^rlock_ratelimit_\w+\{limiter="' . preg_quote($p, '/') . '[ac]"/', $line) || str_starts_with($line, '# TYPE rlock_ratelimit')) {
        echo str_replace($p, 'P:', $line), "\n";
    }
}
rlock_status_reset();
$s = rlock_status();
echo "reset: ", $s['ratelimit']['admitted'] + $s['ratelimit']['refused'], " decisions, ", count($s['ratelimit']['limiters']), " limiters\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(false)
bool(false)
bool(true)
a: admitted=2 refused=2 waits=0 wait.count=0
c: admitted=1 refused=0 waits=0 wait.count=0
b: admitted=2 refused=1 waits=1, slept about 200 ms: true
totals: 9 decisions, refused 3 >= 3: true, waits 1
rows add up: true
not the locks': acquires=0 contended=0 keys=0
without keys: admitted refused waits wait
# TYPE rlock_ratelimit_decisions_total counter
rlock_ratelimit_decisions_total{limiter="P:a",decision="admitted"} 2
rlock_ratelimit_decisions_total{limiter="P:a",decision="refused"} 2
rlock_ratelimit_decisions_total{limiter="P:c",decision="admitted"} 1
rlock_ratelimit_decisions_total{limiter="P:c",decision="refused"} 0
# TYPE rlock_ratelimit_waits_total counter
rlock_ratelimit_waits_total{limiter="P:a"} 0
rlock_ratelimit_waits_total{limiter="P:c"} 0
# TYPE rlock_ratelimit_wait_seconds_total counter
rlock_ratelimit_wait_seconds_total{limiter="P:a"} 0.000000
rlock_ratelimit_wait_seconds_total{limiter="P:c"} 0.000000
reset: 0 decisions, 0 limiters
