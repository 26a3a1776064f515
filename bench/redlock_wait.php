<?php
// Waiting order: the wait distribution of a Redlock lock (3 masters) beside the
// one-server lock's, in one run. P processes (default 8) each take one key N times
// (default 25), hold it H us (default 5000) and release; a wait is from lock()'s call to
// its return. The fair share is (P - 1) x H: what a waiter waits when it is served once
// in every round of the others. Lock servers: BENCH_PORT (one server) and the first 3 of
// BENCH_REDLOCK_PORTS (bench/run.sh starts them); without them, this starts 4 private
// redis-servers itself and stops them at the end.
//
//   php -d extension=modules/rlock.so bench/redlock_wait.php [P N H_us [runs]]
//
// Prints a table (markdown) and, with BENCH_RESULTS set, appends one JSON line per lock
// to that file.

declare(strict_types=1);

$procs = (int) ($argv[1] ?? 8);
$times = (int) ($argv[2] ?? 25);
$holdUs = (int) ($argv[3] ?? 5000);
$runs = (int) ($argv[4] ?? 3);
$host = getenv('BENCH_HOST') ?: '127.0.0.1';

$started = [];
$port = (int) getenv('BENCH_PORT');
$masters = array_slice(array_map('intval', preg_split('/[\s,]+/', trim((string) getenv('BENCH_REDLOCK_PORTS')), -1,
    PREG_SPLIT_NO_EMPTY)), 0, 3);
if ($port === 0 || count($masters) < 3) {
    $ports = [];
    for ($i = 0; $i < 4; $i++) {
        $l = stream_socket_server('tcp://127.0.0.1:0');
        $ports[] = (int) parse_url('tcp://' . stream_socket_get_name($l, false), PHP_URL_PORT);
        $held[] = $l;
    }
    unset($held, $l);
    foreach ($ports as $p) {
        exec("redis-server --port $p --bind 127.0.0.1 --save '' --appendonly no --daemonize yes "
            . "--pidfile /tmp/rlock-bench-$p.pid --logfile /dev/null", $out, $rc);
        $started[] = $p;
    }
    foreach ($ports as $p) {
        for ($i = 0; $i < 100 && !@fsockopen('127.0.0.1', $p); $i++) {
            usleep(50000);
        }
    }
    $port = array_shift($ports);
    $masters = $ports;
    $host = '127.0.0.1';
}

function percentile(array $v, float $p): float
{
    sort($v);
    return $v ? $v[(int) min(count($v) - 1, max(0, ceil($p / 100 * count($v)) - 1))] : 0.0;
}

/** P processes, N holds each: the waits in ms. */
function measure(array $opts, string $key, int $procs, int $times, int $holdUs): array
{
    $file = tempnam(sys_get_temp_dir(), 'rlw');
    $go = microtime(true) + 0.3 + $procs * 0.02;
    $pids = [];
    for ($p = 0; $p < $procs; $p++) {
        $pid = pcntl_fork();
        if ($pid === 0) {
            $waits = [];
            $lock = new RLock($key, $opts);
            $lock->isLocked();  // connected before the start
            time_sleep_until($go);
            for ($i = 0; $i < $times; $i++) {
                $t = hrtime(true);
                if (!$lock->lock()) {
                    $waits[] = -1;
                    continue;
                }
                $waits[] = (hrtime(true) - $t) / 1e6;
                usleep($holdUs);
                $lock->unlock();
            }
            file_put_contents($file, implode("\n", $waits) . "\n", FILE_APPEND | LOCK_EX);
            exit(0);
        }
        $pids[] = $pid;
    }
    foreach ($pids as $pid) {
        pcntl_waitpid($pid, $status);
    }
    $waits = array_map('floatval', file($file, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES));
    unlink($file);
    return $waits;
}

$base = ['ttl' => 10000, 'wait' => 60000];
$locks = [
    'one server' => $base + ['server' => "redis://$host:$port"],
    'Redlock, 3 masters' => $base + ['servers' => array_map(fn ($p) => "redis://$host:$p", $masters)],
];
$fair = ($procs - 1) * $holdUs / 1000;
printf("%d processes x %d holds of %.1f ms; fair share (P - 1) x hold = %.1f ms; %d runs\n\n", $procs, $times,
    $holdUs / 1000, $fair, $runs);
echo "| lock | run | waits | failed | p50 ms | p99 ms | max ms | p99 / fair share |\n|---|---|---|---|---|---|---|---|\n";
foreach ($locks as $name => $opts) {
    for ($run = 1; $run <= $runs; $run++) {
        $w = measure($opts, 'bench-redlock-wait-' . getmypid() . "-$run", $procs, $times, $holdUs);
        $ok = array_values(array_filter($w, fn ($x) => $x >= 0));
        $row = [
            'kind' => 'redlock_wait', 'lock' => $name, 'run' => $run, 'procs' => $procs, 'holds' => $times,
            'hold_ms' => $holdUs / 1000, 'fair_share_ms' => $fair, 'waits' => count($ok),
            'failed' => count($w) - count($ok), 'p50_ms' => percentile($ok, 50), 'p99_ms' => percentile($ok, 99),
            'max_ms' => $ok ? max($ok) : 0.0,
        ];
        printf("| %s | %d | %d | %d | %.1f | %.1f | %.1f | %.1fx |\n", $name, $run, $row['waits'], $row['failed'],
            $row['p50_ms'], $row['p99_ms'], $row['max_ms'], $row['p99_ms'] / $fair);
        if (getenv('BENCH_RESULTS')) {
            file_put_contents(getenv('BENCH_RESULTS'), json_encode($row) . "\n", FILE_APPEND);
        }
    }
}
foreach ($started as $p) {
    exec("redis-cli -p $p shutdown nosave 2>/dev/null");
}
