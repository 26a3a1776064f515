<?php
// Uncontended lock + unlock in one process, a fresh lock object per cycle.
// Usage: php uncontended.php LIB SECONDS

declare(strict_types=1);
require __DIR__ . '/common.php';

[$lib, $seconds] = [$argv[1], (float) $argv[2]];
$cfg = bench_config();
$key = "bench:uncontended:$lib";
bench_prepare($lib, $cfg, $key);
$new = bench_adapter($lib)($cfg);

$cycle = function () use ($new, $key): bool {
    [$lock, $unlock] = $new($key);
    return $lock() && $unlock();
};

for ($i = 0; $i < 200; $i++) {
    $cycle();
}

$n = $failed = 0;
$start = hrtime(true);
$end = $start + (int) ($seconds * 1e9);
do {
    for ($i = 0; $i < 64; $i++) {
        $failed += $cycle() ? 0 : 1;
        $n++;
    }
    $now = hrtime(true);
} while ($now < $end);

$elapsed = ($now - $start) / 1e9;
bench_emit([
    'kind' => 'uncontended',
    'lib' => $lib,
    'cycles' => $n,
    'failed' => $failed,
    'seconds' => $elapsed,
    'cycles_per_s' => $n / $elapsed,
    'us_per_cycle' => $elapsed * 1e6 / $n,
]);
