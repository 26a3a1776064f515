<?php
/*
 * What the status page shows, from rlock_status(): the pool's numbers (every php-fpm worker's,
 * in rlock's shared memory), its hottest keys and its servers, without the histograms' buckets.
 * index.php renders it once, status.php serves it as JSON for the page to poll.
 */

declare(strict_types=1);

/** The hot keys shown, by wait time then acquires. */
const RLOCK_STATUS_TOP_KEYS = 20;

/** A lock's (or the pool's) row: its counters and wait percentiles. */
function rlock_status_row(array $s): array
{
    return [
        'acquires' => $s['acquires'],
        'contended' => $s['contended'],
        'waits' => $s['waits'],
        'timeouts' => $s['timeouts'],
        'lost' => $s['lost'],
        'renewals' => $s['renewals'],
        'handovers' => $s['handovers'],
        'wait_count' => $s['wait']['count'],
        'wait_sum_ms' => $s['wait']['sum_ms'],
        'p50_ms' => $s['wait']['p50_ms'],
        'p99_ms' => $s['wait']['p99_ms'],
        'max_ms' => $s['wait']['max_ms'],
    ];
}

/** A rate limiter's (or all of theirs) decisions, and the sleeps of acquire(). */
function rlock_status_rate_row(array $r): array
{
    return [
        'admitted' => $r['admitted'],
        'refused' => $r['refused'],
        'waits' => $r['waits'],
        'wait_sum_ms' => $r['wait']['sum_ms'],
    ];
}

/** The page's numbers: ['enabled' => false, 'why' => ...] when statistics are off. */
function rlock_status_view(): array
{
    if (!function_exists('rlock_status')) {
        return ['enabled' => false, 'why' => 'the rlock extension is not loaded'];
    }
    $s = rlock_status(true);
    if (!$s['enabled']) {
        return ['enabled' => false, 'why' => 'statistics are off (rlock.stats_keys=0)'];
    }
    $keys = [];
    foreach ($s['keys'] as $key => $k) {
        $keys[] = ['key' => (string) $key, 'kind' => $k['kind']] + rlock_status_row($k);
    }
    usort($keys, fn (array $a, array $b): int => [$b['wait_sum_ms'], $b['acquires']] <=> [$a['wait_sum_ms'], $a['acquires']]);
    $servers = [];
    foreach ($s['servers'] as $name => $v) {
        $servers[] = [
            'server' => (string) $name,
            'commands' => $v['commands'],
            'errors' => array_sum($v['errors']),
            'error_kinds' => $v['errors'],
            'reconnects' => $v['reconnects'],
            'rtt_p50_ms' => $v['rtt']['p50_ms'],
            'rtt_p99_ms' => $v['rtt']['p99_ms'],
        ];
    }
    // the rate limiters: their decisions (a shop's 429s are its refusals), the most refusing first
    $limiters = [];
    foreach ($s['ratelimit']['limiters'] ?? [] as $name => $r) {
        $limiters[] = ['limiter' => (string) $name] + rlock_status_rate_row($r);
    }
    usort($limiters, fn (array $a, array $b): int => [$b['refused'], $b['admitted']] <=> [$a['refused'], $a['admitted']]);
    return [
        'enabled' => true,
        'time_ms' => (int) floor(microtime(true) * 1000),
        'pool' => rlock_status_row($s) + ['holds' => $s['holds'], 'waiters' => $s['waiters']],
        'tracked' => $s['table']['tracked'],
        'table_keys' => $s['table']['keys'],
        'keys' => array_slice($keys, 0, RLOCK_STATUS_TOP_KEYS),
        'other' => rlock_status_row($s['other']),
        'servers' => $servers,
        'ratelimit' => rlock_status_rate_row($s['ratelimit']) + [
            'limiters' => array_slice($limiters, 0, RLOCK_STATUS_TOP_KEYS),
            'tracked' => count($limiters),
        ],
    ];
}
