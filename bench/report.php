<?php
// Turns results.jsonl into the markdown report (stdout) and the chart's data.
// Usage: php report.php RESULTS.jsonl OUT_DIR
// Environment: BENCH_LIBS (row order), BENCH_TARGET_PROCS (default 8).

declare(strict_types=1);
require __DIR__ . '/common.php';

[$resultsFile, $outDir] = [$argv[1], $argv[2]];
$libs = preg_split('/\s+/', trim(getenv('BENCH_LIBS') ?: 'phpredis predis symfony malkusch rlock'));
// rlock's own rows (rlock, rlock_redlock, rlock_cluster) are not peers, nor is the baton:
// an unsafe token passed through a list, the floor a hand-over lock is measured against.
$peers = array_values(array_filter($libs, fn ($lib) => !preg_match('/^(rlock(_|$)|baton$)/', $lib)));
$multi = ['rlock_redlock' => 'BENCH_REDLOCK_PORTS', 'rlock_cluster' => 'BENCH_CLUSTER_PORTS'];
$count = fn (string $env, int $default) => count(preg_split('/\s+/', trim((string) getenv($env)), -1, PREG_SPLIT_NO_EMPTY)) ?: $default;
$labels = [
    'rlock_redlock' => sprintf('rlock Redlock, %d masters', $count('BENCH_REDLOCK_PORTS', 5)),
    'rlock_cluster' => sprintf('rlock cluster, %d masters', $count('BENCH_CLUSTER_PORTS', 3)),
];
$label = fn (string $lib) => $labels[$lib] ?? $lib;
$targetProcs = (int) (getenv('BENCH_TARGET_PROCS') ?: 8);

$pings = [];
$uncontended = $contended = $skipped = $errors = [];
foreach (file($resultsFile, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
    $row = json_decode($line, true);
    match ($row['kind'] ?? null) {
        'ping' => $pings[] = $row,
        'uncontended' => $uncontended[$row['lib']][] = $row,
        'contended' => $contended[$row['lib']][$row['procs']] = $row,
        'skipped' => $skipped[$row['lib']] = $row['why'],
        'error' => $errors[$row['lib']][($row['of'] ?? 'contended') === 'uncontended' ? 'u' : $row['procs']] = $row['why'],
        default => null,
    };
}
// Other load on the machine only ever slows a round down: take the best round.
$rtt = $pings ? min(array_column($pings, 'rtt_p50_us')) : null;
// The wake floor (RPUSH to a process blocked in BLPOP, no lock): the round
// with the least p50, its p99 with it.
$wakes = array_values(array_filter($pings, fn ($p) => isset($p['wake_p50_us'])));
usort($wakes, fn ($a, $b) => $a['wake_p50_us'] <=> $b['wake_p50_us']);
$wake = $wakes[0]['wake_p50_us'] ?? null;

function fmt(?float $x, int $decimals = 0, string $suffix = ''): string
{
    return $x === null ? '-' : number_format($x, $decimals, '.', '') . $suffix;
}

function ratio(?float $a, ?float $b, int $decimals = 2): string
{
    return $a === null || !$b ? '-' : number_format($a / $b, $decimals, '.', '') . 'x';
}

function table(array $header, array $rows): string
{
    $out = '| ' . implode(' | ', $header) . " |\n";
    $out .= '|' . str_repeat('---|', count($header)) . "\n";
    foreach ($rows as $row) {
        $out .= '| ' . implode(' | ', $row) . " |\n";
    }
    return $out;
}

/** Why a row has no numbers: not built, or the error of that run. */
function why(string $lib, int|string $procs): string
{
    global $skipped, $errors;
    $why = $skipped[$lib] ?? $errors[$lib][$procs] ?? 'no result';
    return str_replace('|', '/', $why);
}

$md = "# rlock benchmark\n\n";
$cpu = preg_match('/^model name\s*:\s*(.+)$/m', (string) @file_get_contents('/proc/cpuinfo'), $m) ? $m[1] : php_uname('m');
$idleRtts = array_column($pings, 'idle_rtt_p50_us');
$idleRtt = $idleRtts ? min($idleRtts) : null;
$md .= sprintf("%s; %s, %d cores; %s %s; PHP %s; Redis %s.\n"
    . "PING round trip p50 (phpredis, best of %d rounds): %s us back to back, %s us after 1 ms asleep.\n",
    date('Y-m-d H:i T'), $cpu, (int) shell_exec('nproc'), php_uname('s'), php_uname('r'),
    PHP_VERSION, $pings[0]['redis_version'] ?? '?', count($pings), fmt($rtt, 1), fmt($idleRtt, 1));
$md .= $wake === null
    ? "Wake floor: not measured" . (isset($pings[0]['wake_error']) ? " ({$pings[0]['wake_error']})" : '') . ".\n\n"
    : sprintf("Wake floor p50 (RPUSH to a process blocked in BLPOP for 1 ms, no lock; best of %d rounds): "
        . "%s us (p99 %s us), %s PING round trips.\n\n",
        count($wakes), fmt($wake, 1), fmt($wakes[0]['wake_p99_us'], 1), $rtt ? fmt($wake / $rtt, 1) : '-');

// Uncontended: the best of the rounds, per library.
$cycles = [];
foreach ($uncontended as $lib => $rounds) {
    $cycles[$lib] = max(array_column($rounds, 'cycles_per_s'));
}
// Redis time per cycle (INFO commandstats, commands clients sent): the least of the rounds.
$cycleUsec = [];
foreach ($uncontended as $lib => $rounds) {
    $us = array_filter(array_column($rounds, 'redis_usec_per_cycle'), fn ($x) => $x !== null);
    if ($us) {
        $cycleUsec[$lib] = min($us);
    }
}
$floor = $cycles['floor'] ?? null;
$rows = [];
foreach (array_merge(['floor'], $libs) as $lib) {
    if (!isset($cycles[$lib])) {
        $rows[] = [$label($lib), why($lib, 'u'), '-', '-', '-', '-'];
        continue;
    }
    $rows[] = [$label($lib), fmt($cycles[$lib]), fmt(1e6 / $cycles[$lib], 1),
        $floor ? ratio($floor, $cycles[$lib]) : '-', isset($cycleUsec[$lib]) ? fmt($cycleUsec[$lib], 2) : '-',
        isset($cycleUsec[$lib], $cycleUsec['phpredis']) ? ratio($cycleUsec[$lib], $cycleUsec['phpredis']) : '-'];
}
$md .= sprintf("## Uncontended: lock + unlock in one process, a fresh lock object per cycle (best of %d rounds)\n\n",
    count($uncontended['floor'] ?? []));
$md .= table(['library', 'cycles/s', 'us/cycle', 'cycle time vs floor', 'Redis us/cycle', 'vs classic phpredis'], $rows) . "\n";

// Contended: per P, ratios against the best peer at the same P.
$procsList = [];
foreach ($contended as $byProcs) {
    $procsList = array_merge($procsList, array_keys($byProcs));
}
$procsList = array_values(array_unique($procsList));
sort($procsList);

// The peer with the highest (or lowest) value of field at P = procs ($bestPeerLib), and
// that value ($bestPeer).
$bestPeerLib = function (int $procs, string $field, bool $highest) use ($contended, $peers): ?string {
    $best = null;
    foreach ($peers as $peer) {
        $x = $contended[$peer][$procs][$field] ?? null;
        if ($x !== null && ($best === null || ($highest ? $x > $contended[$best][$procs][$field] : $x < $contended[$best][$procs][$field]))) {
            $best = $peer;
        }
    }
    return $best;
};
$bestPeer = function (int $procs, string $field, bool $highest) use ($contended, $bestPeerLib): ?float {
    $lib = $bestPeerLib($procs, $field, $highest);
    return $lib === null ? null : (float) $contended[$lib][$procs][$field];
};

$header = ['library', 'P', 'sections/s', 'vs baton', 'vs best peer', 'efficiency', 'lost', 'failed',
    'wait p99 ms', 'wait max ms', 'fair share ms', 'p99 / fair', 'handoff p50 us', 'handoff p99 us',
    'handoff p50 / RTT', 'handoff p50 / wake floor', 'Redis us/section', 'vs best peer', 'Redis CPU us/section', 'client cmds/section'];
$rows = [];
$any = [];
foreach ($contended as $lib => $byProcs) {
    if (!isset($multi[$lib]) || !$any) {
        $any = reset($byProcs) ?: [];
    }
}
$multiSections = [];
foreach (array_keys($multi) as $lib) {
    foreach ($contended[$lib] ?? [] as $r) {
        $multiSections[] = $r['sections_each'] * $r['procs'];
    }
}
foreach ($procsList as $procs) {
    $bestThroughput = $bestPeer($procs, 'throughput', true);
    $bestRedis = $bestPeer($procs, 'redis_usec_per_section', false);
    foreach ($libs as $lib) {
        $r = $contended[$lib][$procs] ?? null;
        if (!$r) {
            if (!isset($multi[$lib]) || isset($skipped[$lib]) || isset($errors[$lib][$procs])) {
                $rows[] = array_merge([$label($lib), $procs, why($lib, $procs)], array_fill(0, count($header) - 3, '-'));
            }
            continue;
        }
        $rows[] = [$label($lib), $procs, fmt($r['throughput']),
            ratio($r['throughput'], $contended['baton'][$procs]['throughput'] ?? null), ratio($r['throughput'], $bestThroughput),
            fmt(100 * $r['efficiency'], 1, '%'), $r['lost_updates'], $r['failed'],
            fmt($r['wait_p99_us'] / 1000, 2), fmt($r['wait_max_us'] / 1000, 1),
            fmt($r['fair_share_us'] / 1000, 2), ratio($r['wait_p99_us'], $r['fair_share_us'], 1),
            fmt($r['handoff_p50_us'], 0), fmt($r['handoff_p99_us'], 0),
            ratio($r['handoff_p50_us'], $rtt, 1), ratio($r['handoff_p50_us'], $wake, 1),
            fmt($r['redis_usec_per_section'], 1), ratio($r['redis_usec_per_section'], $bestRedis),
            fmt($r['redis_cpu_usec_per_section'], 1), fmt($r['client_cmds_per_section'], 2)];
    }
}
$md .= sprintf("## Contended: P processes on one key, about %d sections per run in all\n\n"
    . "Each section: GET a counter on a second Redis, %s %d us, SET it + 1; %s between a process's sections.\n\n",
    $any ? $any['sections_each'] * $any['procs'] : 0,
    !empty($any['spin']) ? 'busy-wait' : 'sleep', $any['section_us'] ?? 0,
    empty($any['think_us']) ? 'no pause' : "a pause of {$any['think_us']} us");
if ($multiSections) {
    $md .= "The Redlock and cluster rows: Redis us, Redis CPU us and client cmds per section are summed "
        . "over all their servers (Redlock: every master takes every command; cluster: only the master "
        . "of the key's slot sees lock traffic, the others add their idle cluster-bus CPU)";
    $md .= $any && max($multiSections) !== $any['sections_each'] * $any['procs']
        ? sprintf("; they run about %d sections per run.\n\n", max($multiSections)) : ".\n\n";
}
$md .= table($header, $rows) . "\n";
$md .= "Wait: lock() call to return. Fair share: P x mean section time. Handoff: one section's "
    . "end (before its unlock) to the next section's start, when the next one was already waiting; "
    . "wake floor: RPUSH to a process blocked in BLPOP, no lock (header). "
    . "Redis us: INFO commandstats time of the commands clients sent (script-run commands are inside "
    . "their EVAL's time). Client cmds: MONITOR, separate short pass, script-run commands excluded. "
    . "\"vs best peer\": against the best of " . implode(', ', $peers) . " at the same P.\n\n";

// What the clients sent, per section, at the target P.
$rows = [];
foreach ($libs as $lib) {
    $r = $contended[$lib][$targetProcs] ?? null;
    if (!$r) {
        continue;
    }
    $per = fn (array $cmds) => implode(', ', array_map(
        fn ($cmd, $n) => sprintf('%s %.2f', $cmd, $n / max(1, $r['watched_sections'])),
        array_keys($cmds), $cmds)) ?: '-';
    $rows[] = [$label($lib), $per($r['client_cmds']), $per($r['lua_cmds'])];
}
if ($rows) {
    $md .= "## Commands per section at P = $targetProcs (MONITOR pass)\n\n";
    $md .= table(['library', 'sent by the client', 'run inside scripts'], $rows) . "\n";
}

// The issue's targets, rlock against the same run.
$t = $contended['rlock'][$targetProcs] ?? null;

// The Redis-time floor of a lock that does not poll, per handed-over section:
// rlock's BLPOP, and the best peer's (least Redis us/section) release script
// and SET, each in usec per call from INFO commandstats of the timed pass.
$redisPeer = $bestPeerLib($targetProcs, 'redis_usec_per_section', false);
$bp = $redisPeer === null ? null : $contended[$redisPeer][$targetProcs];
[$noPollFloor, $noPoll] = bench_no_poll_floor($t, $bp);
$check = fn (?float $value, float $limit, bool $atMost, int $decimals = 2, string $unit = '') => $value === null
    ? ['-', 'no result']
    : [number_format($value, $decimals, '.', '') . $unit, ($atMost ? $value <= $limit : $value >= $limit) ? 'yes' : 'NO'];
// Issue 13's targets: against the baton at every P, and the issue 3 rows that still stand.
$targets = [];
$baton = $contended['baton'] ?? [];
foreach ($procsList as $procs) {
    $r = $contended['rlock'][$procs] ?? null;
    $b = $baton[$procs]['throughput'] ?? null;
    $targets[] = ["throughput / baton's, P=$procs", '>= 0.95',
        ...$check($r && $b ? $r['throughput'] / $b : null, 0.95, false)];
    $targets[] = ["client commands per section, P=$procs", '<= 3.1', ...$check($r['client_cmds_per_section'] ?? null, 3.1, true)];
    $targets[] = ["wait p99 / fair share, P=$procs", '<= 1.5',
        ...$check($r ? $r['wait_p99_us'] / $r['fair_share_us'] : null, 1.5, true)];
    $targets[] = ["lost updates, P=$procs", '= 0', ...$check($r ? (float) $r['lost_updates'] : null, 0, true, 0)];
}
$targets[] = ['uncontended cycle time / classic phpredis lock\'s', '<= 1.00',
    ...$check(isset($cycles['rlock'], $cycles['phpredis']) ? $cycles['phpredis'] / $cycles['rlock'] : null, 1.00, true)];
$targets[] = ['uncontended Redis time per cycle / classic phpredis lock\'s', '<= 1.10',
    ...$check(isset($cycleUsec['rlock'], $cycleUsec['phpredis']) ? $cycleUsec['rlock'] / $cycleUsec['phpredis'] : null, 1.10, true)];
$targets[] = ["Redis time per section / the no-poll floor below (BLPOP + release EVAL + SET), P=$targetProcs", '<= 2.0',
    ...$check($t && $noPollFloor ? $t['redis_usec_per_section'] / $noPollFloor : null, 2.0, true)];
$targets[] = ["handoff p50 / wake floor (RPUSH to a blocked BLPOP, no lock), P=$targetProcs", '-',
    $t && $wake && $t['handoff_p50_us'] !== null ? fmt($t['handoff_p50_us'] / $wake, 2) : '-', '-'];
$md .= "## Goals, rlock in this run\n\n";
$md .= table(['goal', 'limit', 'measured', 'met'], $targets);
if ($wake !== null && $rtt) {
    $md .= sprintf("\nThe wake floor is one process's RPUSH waking another process blocked in BLPOP on that list "
        . "(for about 1 ms), with no lock at all: p50 %s us here, %s PING round trips, the least any hand-over "
        . "between processes costs on this machine when the next holder sleeps until it is woken%s.\n",
        fmt($wake, 1), fmt($wake / $rtt, 1),
        $wake / $rtt > 2.0 ? ", already more than the handoff target's 2 round trips" : '');
}
// The throughput ceiling: one section at a time, back to back, each as long as the
// shortest mean section of any library (the same work for all) at that P.
$sections = [];
foreach ($libs as $lib) {
    if (isset($contended[$lib][$targetProcs])) {
        $sections[] = $contended[$lib][$targetProcs]['fair_share_us'] / $targetProcs;
    }
}
$ceiling = $sections ? 1e6 / min($sections) : null;
$peerThroughput = $bestPeer($targetProcs, 'throughput', true);
$batonThroughput = $baton[$targetProcs]['throughput'] ?? null;
if ($ceiling && $peerThroughput) {
    $md .= sprintf("
Throughput ceiling at P=%d: one section at a time with no gap, %s us each, is %s sections/s. "
        . "The best peer reached %s of it, the baton %s, rlock %s.\n",
        $targetProcs, fmt(min($sections), 0), fmt($ceiling, 0), fmt(100 * $peerThroughput / $ceiling, 1, '%'),
        $batonThroughput ? fmt(100 * $batonThroughput / $ceiling, 1, '%') : '-',
        $t ? fmt(100 * $t['throughput'] / $ceiling, 1, '%') : '-');
}
if ($wake !== null && $rtt && $noPollFloor !== null) {
    $md .= sprintf("\nA hand-over that checks the owner runs a script before the wake: the wake floor plus the peers' "
        . "compare-and-delete EVAL is %s us, %s PING round trips, before either client does any work of its own.\n",
        fmt($wake + $noPoll['release'], 1), fmt(($wake + $noPoll['release']) / $rtt, 2));
}
if ($noPollFloor !== null) {
    $md .= sprintf("\nA lock that does not poll needs per hand-over at least one BLPOP (%s us here), one release "
        . "script (the peers' compare-and-delete EVAL: %s us) and one acquire attempt (SET: %s us): at least %s us, "
        . "%s%s the best peer's Redis time per section (%s, %s us at P=%d)%s.\n",
        fmt($noPoll['blpop'], 2), fmt($noPoll['release'], 2), fmt($noPoll['set'], 2), fmt($noPollFloor, 2),
        $noPollFloor > $bp['redis_usec_per_section'] ? 'already ' : '',
        ratio($noPollFloor, $bp['redis_usec_per_section']), $redisPeer, fmt($bp['redis_usec_per_section'], 2),
        $targetProcs, $noPollFloor > 1.2 * $bp['redis_usec_per_section'] ? ', above the target\'s 1.20' : '');
}

// Redlock and cluster against rlock on one server, same P, same run.
$rows = [];
foreach (array_keys($multi) as $lib) {
    $r = $contended[$lib][$targetProcs] ?? null;
    if (!$r || !in_array($lib, $libs, true)) {
        continue;
    }
    $rows[] = [$label($lib), ratio($cycles['rlock'] ?? null, $cycles[$lib] ?? null),
        ratio($r['throughput'], $t['throughput'] ?? null), fmt(100 * $r['efficiency'], 1, '%'),
        ratio($r['wait_p99_us'], $r['fair_share_us'], 1), $r['lost_updates'],
        fmt($r['client_cmds_per_section'], 2), ratio($r['client_cmds_per_section'], $t['client_cmds_per_section'] ?? null),
        fmt($r['redis_usec_per_section'], 1), ratio($r['redis_usec_per_section'], $t['redis_usec_per_section'] ?? null)];
}
if ($rows) {
    $md .= "\n## Redlock and cluster against rlock on one server, P=$targetProcs, this run\n\n";
    $md .= table(['rows', 'uncontended cycle time / one server', 'throughput / one server', 'efficiency',
        'wait p99 / fair share', 'lost updates', 'client cmds/section (all servers)', '/ one server',
        'Redis us/section (all servers)', '/ one server'], $rows);
}

file_put_contents("$outDir/report.md", $md);
echo $md;

// Chart data: one file per library, plus the uncontended bars.
$bars = '';
foreach (array_merge(['floor'], $libs) as $lib) {
    $bars .= sprintf("%s %.1f\n", $lib, $cycles[$lib] ?? 0);
}
file_put_contents("$outDir/uncontended.dat", $bars);
foreach ($libs as $lib) {
    $dat = "# P sections/s efficiency% p99/fair redis_us_per_section client_cmds_per_section handoff_p50_us redis_cpu_us_per_section\n";
    $byProcs = $contended[$lib] ?? [];
    ksort($byProcs);
    foreach ($byProcs as $procs => $r) {
        $dat .= sprintf("%d %.1f %.1f %.3f %.2f %.3f %s %.2f\n", $procs, $r['throughput'], 100 * $r['efficiency'],
            $r['wait_p99_us'] / $r['fair_share_us'], $r['redis_usec_per_section'],
            $r['client_cmds_per_section'], $r['handoff_p50_us'] === null ? 'NaN' : sprintf('%.1f', $r['handoff_p50_us']),
            $r['redis_cpu_usec_per_section']);
    }
    file_put_contents("$outDir/contended-$lib.dat", $dat);
}
