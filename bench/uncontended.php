<?php
// Uncontended lock + unlock in one process, a fresh lock object per cycle.
// Usage: php uncontended.php LIB SECONDS
//
// The warm-up cycles are watched with MONITOR (which commands the client sent, which ran
// inside scripts); the timed cycles are not, and the lock servers' INFO commandstats
// around them give the Redis time of the commands clients sent, per cycle.

declare(strict_types=1);
require __DIR__ . '/common.php';
require __DIR__ . '/monitor.php';

[$lib, $seconds] = [$argv[1], (float) $argv[2]];
$cfg = bench_config();
$key = "bench:uncontended:$lib";
$ports = bench_lock_ports($lib, $cfg);

// The monitors are forked before any lock connection exists: no child inherits one.
$dir = $cfg['tmp'] . '/uncontended-' . getmypid() . '-' . bin2hex(random_bytes(4));
mkdir($dir);
[$signal, $signalChild] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$monitors = [];
foreach ($ports as $i => $port) {
    $pid = pcntl_fork();
    if ($pid === -1) {
        throw new RuntimeException('fork failed');
    }
    if ($pid === 0) {
        bench_monitor($cfg, $port, "$dir/monitor-$i.json", $signalChild);
        exit(0);
    }
    $monitors[$i] = $pid;
}
for ($on = ''; strlen($on) < count($ports);) {
    $read = [$signal];
    $none = null;
    if (stream_select($read, $none, $none, $cfg['pass_timeout_s']) < 1) {
        throw new RuntimeException('the monitors did not start');
    }
    $on .= (string) fread($signal, 64);
}

bench_prepare($lib, $cfg, $key);
$new = bench_adapter($lib)($cfg);
$cycle = function () use ($new, $key): bool {
    [$lock, $unlock] = $new($key);
    return $lock() && $unlock();
};

$warm = 200;
for ($i = 0; $i < $warm; $i++) {
    $cycle();
}

$admins = array_map(fn (int $port) => bench_redis($cfg['host'], $port), $ports);
$seen = ['client' => [], 'lua' => []];
foreach ($ports as $i => $port) {
    $admins[$i]->echo(BENCH_MONITOR_STOP);
    pcntl_waitpid($monitors[$i], $status);
    foreach (json_decode((string) file_get_contents("$dir/monitor-$i.json"), true) as $from => $cmds) {
        foreach ($cmds as $cmd => $n) {
            $seen[$from][$cmd] = ($seen[$from][$cmd] ?? 0) + $n;
        }
    }
    unlink("$dir/monitor-$i.json");
}
rmdir($dir);
$usage = fn () => bench_sum_usage(array_map('bench_server_usage', $admins));

$n = $failed = 0;
$before = $usage();
// this process' CPU (user + system): what a cycle costs the client, less swayed than the
// wall clock by other processes on a loaded machine
$cpu = function (): float {
    $r = getrusage();
    return $r['ru_utime.tv_sec'] * 1e6 + $r['ru_utime.tv_usec'] + $r['ru_stime.tv_sec'] * 1e6 + $r['ru_stime.tv_usec'];
};
$cpu0 = $cpu();
$start = hrtime(true);
$end = $start + (int) ($seconds * 1e9);
do {
    for ($i = 0; $i < 64; $i++) {
        $failed += $cycle() ? 0 : 1;
        $n++;
    }
    $now = hrtime(true);
} while ($now < $end);
$cpu1 = $cpu();
$after = $usage();

$elapsed = ($now - $start) / 1e9;
$usec = bench_usage_delta($before, $after, 'cmd_usec');
bench_emit([
    'kind' => 'uncontended',
    'lib' => $lib,
    'cycles' => $n,
    'failed' => $failed,
    'seconds' => $elapsed,
    'cycles_per_s' => $n / $elapsed,
    'us_per_cycle' => $elapsed * 1e6 / $n,
    'client_cpu_us_per_cycle' => ($cpu1 - $cpu0) / $n,
    'redis_usec_per_cycle' => bench_client_usec($usec, $seen) / $n,
    'client_cmds_per_cycle' => array_sum($seen['client']) / $warm,
    'server_usec' => $usec,
]);
