<?php
// Issue 13's targets as medians over several runs (BENCH_RUNS=N bench/run.sh): each
// ratio is taken within one run, then the median over the runs; and, per library, the
// medians of client commands and lock-Redis CPU per section against P.
// Usage: php medians.php results-1.jsonl results-2.jsonl ...   (markdown on stdout)

declare(strict_types=1);
require __DIR__ . '/common.php';

$runs = [];
foreach (array_slice($argv, 1) as $file) {
    $run = ['contended' => [], 'cycles' => [], 'cycle_usec' => []];
    foreach (file($file, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
        $row = json_decode($line, true);
        if (($row['kind'] ?? '') === 'contended') {
            $run['contended'][$row['lib']][$row['procs']] = $row;
        } elseif (($row['kind'] ?? '') === 'uncontended') {
            // the best round of the run, as report.php takes it
            $run['cycles'][$row['lib']] = max($run['cycles'][$row['lib']] ?? 0, $row['cycles_per_s']);
            if (isset($row['redis_usec_per_cycle'])) {
                $run['cycle_usec'][$row['lib']] = min($run['cycle_usec'][$row['lib']] ?? INF, $row['redis_usec_per_cycle']);
            }
        }
    }
    $runs[] = $run;
}

/** The median of the non-null values of $xs; null when there are none. */
function median(array $xs): ?float
{
    $xs = array_values(array_filter($xs, fn ($x) => $x !== null));
    sort($xs);
    $n = count($xs);
    return $n === 0 ? null : ($n % 2 ? (float) $xs[intdiv($n, 2)] : ($xs[$n / 2 - 1] + $xs[$n / 2]) / 2);
}

/** The median over the runs of $f(run), and the values of each run. */
function over_runs(array $runs, callable $f): array
{
    $xs = array_map($f, $runs);
    return [median($xs), $xs];
}

function cell(array $m, int $decimals, string $suffix = ''): string
{
    [$median, $xs] = $m;
    if ($median === null) {
        return '-';
    }
    $each = array_map(fn ($x) => $x === null ? '-' : number_format($x, $decimals, '.', ''), $xs);
    return number_format($median, $decimals, '.', '') . $suffix . ' (' . implode(', ', $each) . ')';
}

$procsList = [];
$libs = [];
foreach ($runs as $run) {
    foreach ($run['contended'] as $lib => $byProcs) {
        $libs[$lib] = true;
        $procsList = array_merge($procsList, array_keys($byProcs));
    }
}
$procsList = array_values(array_unique($procsList));
sort($procsList);

$n = count($runs);
$md = "\n## Goals, medians of $n runs\n\nEach ratio within one run; the median, then each run's value.\n\n";
$md .= "| goal | limit | median (runs) | met |\n|---|---|---|---|\n";
$row = function (string $target, string $limit, array $m, float $bound, bool $atMost, int $decimals = 2) use (&$md): void {
    $met = $m[0] === null ? 'no result' : (($atMost ? $m[0] <= $bound : $m[0] >= $bound) ? 'yes' : 'NO');
    $md .= "| $target | $limit | " . cell($m, $decimals) . " | $met |\n";
};
foreach ($procsList as $procs) {
    $r = fn (array $run, string $lib = 'rlock') => $run['contended'][$lib][$procs] ?? null;
    $row("throughput / baton's, P=$procs", '>= 0.95', over_runs($runs, fn ($run) =>
        $r($run) && $r($run, 'baton') ? $r($run)['throughput'] / $r($run, 'baton')['throughput'] : null), 0.95, false);
    $row("client commands per section, P=$procs", '<= 3.1',
        over_runs($runs, fn ($run) => $r($run)['client_cmds_per_section'] ?? null), 3.1, true);
    $row("wait p99 / fair share, P=$procs", '<= 1.5', over_runs($runs, fn ($run) =>
        $r($run) ? $r($run)['wait_p99_us'] / $r($run)['fair_share_us'] : null), 1.5, true);
}
$row("uncontended cycle time / classic phpredis lock's", '<= 1.00', over_runs($runs, fn ($run) =>
    isset($run['cycles']['rlock'], $run['cycles']['phpredis']) ? $run['cycles']['phpredis'] / $run['cycles']['rlock'] : null),
    1.00, true);
$row("uncontended Redis time per cycle / classic phpredis lock's", '<= 1.10', over_runs($runs, fn ($run) =>
    isset($run['cycle_usec']['rlock'], $run['cycle_usec']['phpredis'])
        ? $run['cycle_usec']['rlock'] / $run['cycle_usec']['phpredis'] : null), 1.10, true);
// The no-poll floor as report.php takes it: rlock's BLPOP, the release script and SET of
// the peer with the least Redis time per section, at P = BENCH_TARGET_PROCS.
$targetProcs = (int) (getenv('BENCH_TARGET_PROCS') ?: 8);
$row("Redis time per section / the no-poll floor, P=$targetProcs", '<= 2.0', over_runs($runs, function ($run) use ($targetProcs) {
    $rlock = $run['contended']['rlock'][$targetProcs] ?? null;
    $peer = null;
    foreach ($run['contended'] as $lib => $byProcs) {
        $r = $byProcs[$targetProcs] ?? null;
        if ($r && !preg_match('/^(rlock(_|$)|baton$)/', $lib)
                && ($peer === null || $r['redis_usec_per_section'] < $peer['redis_usec_per_section'])) {
            $peer = $r;
        }
    }
    $floor = bench_no_poll_floor($rlock, $peer)[0];
    return $rlock && $floor ? $rlock['redis_usec_per_section'] / $floor : null;
}), 2.0, true);

foreach ([
    ['throughput', 'Sections/s', 0],
    ['client_cmds_per_section', 'Client commands per section (MONITOR)', 2],
    ['redis_cpu_usec_per_section', 'Lock-Redis CPU us per section (INFO cpu)', 0],
] as [$field, $title, $decimals]) {
    $md .= "\n$title against P, medians of $n runs:\n\n| library | P = " . implode(' | P = ', $procsList) . " |\n"
        . '|---|' . str_repeat('---|', count($procsList)) . "\n";
    foreach (array_keys($libs) as $lib) {
        $cells = array_map(fn ($procs) => cell([median(array_map(
            fn ($run) => $run['contended'][$lib][$procs][$field] ?? null, $runs)), []], $decimals), $procsList);
        $md .= "| $lib | " . implode(' | ', array_map(fn ($c) => preg_replace('/ \(\)$/', '', $c), $cells)) . " |\n";
    }
}
echo $md;
