--TEST--
rlock_metrics() is valid Prometheus text (promtool check metrics), with keys that need escaping, keys cut to length, and the "other" row
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!is_executable('/usr/bin/promtool')) die('skip promtool not installed (Debian: prometheus)'); ?>
--INI--
rlock.stats_keys=8
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['reentrant' => false]);
$take = function (array $keys) use ($o) {
    foreach ($keys as $k) {
        $l = new RLock($k, $o);
        $l->lock(1000);
        $l->unlock();
    }
};
$check = function (string $m) {
    $p = proc_open(['/usr/bin/promtool', 'check', 'metrics'], [['pipe', 'r'], ['pipe', 'w'], ['pipe', 'w']], $pipes);
    fwrite($pipes[0], $m);
    fclose($pipes[0]);
    $out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
    echo "promtool: exit ", proc_close($p), trim($out) === '' ? '' : "\n$out", "\n";
    echo "every line a comment or a sample: ", var_export(count(array_filter(explode("\n", rtrim($m)),
        fn ($l) => !str_starts_with($l, '# ') && !preg_match('/^[a-z_]+(\{.*\})? [0-9.]+$/', $l))) === 0, true), "\n";
    $acq = array_values(array_filter(explode("\n", $m), fn ($l) => str_starts_with($l, 'rlock_acquires_total{')));
    echo count($acq), " acquires rows, summing to ", array_sum(array_map(fn ($l) => (int) substr($l, strrpos($l, ' ') + 1), $acq)),
        ", other last: ", var_export(str_starts_with(end($acq), 'rlock_acquires_total{key="other",kind="other"} '), true), "\n";
};

// 7 keys in a table of 8: every one tracked, and labelled
$take(["quote\"back\\slash\nnewline", "utf8 \u{1F512} ok", "bad \xff\xfe utf8", "bad \xff\xfd utf8", "nul\0byte",
    str_repeat('long-', 100) . 'a', str_repeat('long-', 100) . 'b']);
$m = rlock_metrics();
$check($m);
// the name escapes the newline (\x0A, marked by hash), the label its backslash
echo "escaped: ", var_export(preg_match('/\{key="' . preg_quote($o['prefix'], '/') . 'quote\x5c"back\x5c\x5cslash\x5c\x5cx0Anewline#[0-9a-f]{16}",kind="lock"\} 1$/m', $m) === 1, true), "\n";
echo "UTF-8 kept: ", var_export(str_contains($m, "utf8 \u{1F512} ok\""), true), "\n";
echo "not UTF-8, NUL: escaped as \\xHH, and told apart by hash: ", preg_match_all('/^rlock_acquires_total\{key="[^"]*(bad \x5c\x5cxFF\x5c\x5cxF[ED] utf8|nul\x5c\x5cx00byte)#[0-9a-f]{16}",kind="lock"\} 1$/m', $m), "\n";
echo "long keys cut, and told apart by hash: ", preg_match_all('/^rlock_acquires_total\{key="[^"]*long-[a-z-]*\.\.\.#[0-9a-f]{16}",kind="lock"\} 1$/m', $m), "\n";

// 5 more: evictions, their counts under "other"
$take(['e1', 'e2', 'e3', 'e4', 'e5']);
$check(rlock_metrics());

$s = rlock_status();
echo "tracked {$s['table']['tracked']}, evictions {$s['table']['evictions']}, other acquires {$s['other']['acquires']}, pool acquires {$s['acquires']}\n";

// a rate limiter whose name needs escaping: its decisions, valid too
$r = new RRateLimiter("rate \"limit\"\xff", 1, 60000, array_diff_key($o, ['reentrant' => 1]));
$r->tryAcquire();
$r->tryAcquire();
$m = rlock_metrics();
$check($m);
echo "limiter's decisions: ", preg_match_all('/^rlock_ratelimit_decisions_total\{limiter="[^"]*rate \x5c"limit\x5c"\x5c\x5cxFF#[0-9a-f]{16}",decision="(admitted|refused)"\} 1$/m', $m), "\n";
?>
--EXPECT--
promtool: exit 0
every line a comment or a sample: true
8 acquires rows, summing to 7, other last: true
escaped: true
UTF-8 kept: true
not UTF-8, NUL: escaped as \xHH, and told apart by hash: 3
long keys cut, and told apart by hash: 2
promtool: exit 0
every line a comment or a sample: true
9 acquires rows, summing to 12, other last: true
tracked 8, evictions 4, other acquires 4, pool acquires 12
promtool: exit 0
every line a comment or a sample: true
8 acquires rows, summing to 12, other last: true
limiter's decisions: 2
