<?php
// Round trip of a PING with phpredis: the unit for handoff latency.
// Usage: php ping.php [COUNT]

declare(strict_types=1);
require __DIR__ . '/common.php';

$cfg = bench_config();
$count = (int) ($argv[1] ?? 5000);
$r = bench_redis($cfg['host'], $cfg['port']);
for ($i = 0; $i < 200; $i++) {
    $r->ping();
}
$rtt = [];
for ($i = 0; $i < $count; $i++) {
    $t = hrtime(true);
    $r->ping();
    $rtt[] = (hrtime(true) - $t) / 1000;
}
// The same after 1 ms asleep, as a waiter is when its wake-up comes: includes
// the cost of waking an idle CPU and process.
$idle = [];
for ($i = 0; $i < intdiv($count, 10); $i++) {
    usleep(1000);
    $t = hrtime(true);
    $r->ping();
    $idle[] = (hrtime(true) - $t) / 1000;
}
bench_emit([
    'kind' => 'ping',
    'count' => $count,
    'rtt_p50_us' => bench_percentile($rtt, 50),
    'rtt_mean_us' => array_sum($rtt) / $count,
    'idle_rtt_p50_us' => bench_percentile($idle, 50),
    'redis_version' => $r->info('server')['redis_version'],
]);
