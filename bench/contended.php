<?php
// P processes x M critical sections of C microseconds on one key.
// Usage: php contended.php LIB P M C_US MONITOR_M
//
// Two passes, both started together by a gate once every worker is warm:
// 1. a short pass of MONITOR_M sections each, watched with MONITOR, to count
//    the commands clients send per section (commands run inside scripts,
//    shown as "lua" by MONITOR, are not counted);
// 2. the timed pass of M sections each, unwatched: throughput, efficiency,
//    waits, handoffs, lost updates, and the server's time from INFO.
// The counter lives on a second server, so the lock server sees lock traffic
// only. A library on several servers (Redlock's masters, the cluster's) is
// watched on all of them, and its commands and server time are their sum.
// Prints one JSON line.

declare(strict_types=1);
require __DIR__ . '/common.php';
require __DIR__ . '/worker.php';
require __DIR__ . '/monitor.php';

[$lib, $procs, $sections, $sectionUs, $monitorSections] =
    [$argv[1], (int) $argv[2], (int) $argv[3], (int) $argv[4], (int) $argv[5]];
$cfg = bench_config();
$adapter = bench_adapter($lib);
$ports = bench_lock_ports($lib, $cfg);

/** Runs one pass; returns the workers' stamps and what the driver saw. */
function run_pass(string $lib, Closure $adapter, array $cfg, array $ports, string $key, int $procs, int $sections,
    int $sectionUs, bool $monitor): array
{
    // Set up on connections closed before forking: no child inherits them.
    $r = bench_redis($cfg['host'], $cfg['counter_port']);
    $r->set('counter', '0');
    $r->close();
    bench_prepare($lib, $cfg, $key);

    $dir = $cfg['tmp'] . '/pass-' . getmypid() . '-' . bin2hex(random_bytes(4));
    mkdir($dir);
    [$signal, $signalChild] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    [$goOpen, $go] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    [$quitOpen, $quit] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);

    $fork = function (Closure $child) use ($goOpen, $quitOpen): int {
        $pid = pcntl_fork();
        if ($pid === -1) {
            throw new RuntimeException('fork failed');
        }
        if ($pid === 0) {
            fclose($goOpen);
            fclose($quitOpen);
            try {
                $child();
            } catch (Throwable $e) {
                fwrite(STDERR, 'child: ' . get_class($e) . ': ' . $e->getMessage() . "\n");
                exit(1);
            }
            exit(0);
        }
        return $pid;
    };
    // Waits for $n bytes $what from the children; fails when one of them
    // ended early or the pass runs past its deadline.
    $pids = [];
    $deadline = hrtime(true) + $cfg['pass_timeout_s'] * 1000000000;
    $await = function (string $what, int $n) use ($signal, &$pids, $deadline, $cfg): void {
        $seen = '';
        while (substr_count($seen, $what) < $n) {
            $read = [$signal];
            $none = null;
            if (stream_select($read, $none, $none, 1) > 0) {
                $seen .= (string) fread($signal, 64);
            }
            foreach ($pids as $i => $pid) {
                if (pcntl_waitpid($pid, $status, WNOHANG) > 0) {
                    unset($pids[$i]);
                    throw new RuntimeException("a child ended before sending '$what'");
                }
            }
            if (hrtime(true) > $deadline) {
                throw new RuntimeException("no '$what' from all children within {$cfg['pass_timeout_s']} s");
            }
        }
    };

    try {
        for ($w = 0; $w < $procs; $w++) {
            $pids[] = $fork(fn () => bench_worker($adapter, $cfg, $key, $sections, $sectionUs,
                "$dir/$w", $signalChild, $go, $quit));
        }
        $await('r', $procs);

        if ($monitor) {
            foreach ($ports as $i => $port) {
                $pids["monitor$i"] = $fork(fn () => bench_monitor($cfg, $port, "$dir/monitor-$i.json", $signalChild));
            }
            $await('m', count($ports));
        }
        $admins = array_map(fn (int $port) => bench_redis($cfg['host'], $port), $ports);
        $usage = fn () => bench_sum_usage(array_map('bench_server_usage', $admins));
        $before = $monitor ? null : $usage();

        $start = hrtime(true);
        fclose($goOpen);
        $await('d', $procs);

        $after = null;
        if ($monitor) {
            foreach ($ports as $i => $port) {
                $admins[$i]->echo(BENCH_MONITOR_STOP);
                pcntl_waitpid($pids["monitor$i"], $status);
                unset($pids["monitor$i"]);
            }
        } else {
            $after = $usage();
        }
        fclose($quitOpen);
        foreach ($pids as $pid) {
            pcntl_waitpid($pid, $status);
        }
    } catch (Throwable $e) {
        foreach ($pids as $pid) {
            posix_kill($pid, SIGKILL);
            pcntl_waitpid($pid, $status);
        }
        array_map('unlink', glob("$dir/*"));
        rmdir($dir);
        throw $e;
    }

    $stamps = [];
    for ($w = 0; $w < $procs; $w++) {
        $raw = array_values(unpack('J*', (string) @file_get_contents("$dir/$w")) ?: []);
        foreach (array_chunk($raw, 3) as [$asked, $entered, $left]) {
            $stamps[] = ['asked' => $asked, 'entered' => $entered, 'left' => $left];
        }
        @unlink("$dir/$w");
    }
    $seen = null;
    if ($monitor) {
        $seen = ['client' => [], 'lua' => []];
        foreach (array_keys($ports) as $i) {
            foreach (json_decode(file_get_contents("$dir/monitor-$i.json"), true) as $from => $cmds) {
                foreach ($cmds as $cmd => $n) {
                    $seen[$from][$cmd] = ($seen[$from][$cmd] ?? 0) + $n;
                }
            }
        }
    }
    array_map('unlink', glob("$dir/*"));
    rmdir($dir);

    $counter = bench_redis($cfg['host'], $cfg['counter_port']);
    $final = (int) $counter->get('counter');

    return ['stamps' => $stamps, 'start' => $start, 'counter' => $final,
        'before' => $before, 'after' => $after, 'monitor' => $seen];
}

// Short watched pass first: it also warms the server's script cache.
try {
    $watched = run_pass($lib, $adapter, $cfg, $ports, "bench:$lib:$procs:watched", $procs, $monitorSections, $sectionUs, true);
    $timed = run_pass($lib, $adapter, $cfg, $ports, "bench:$lib:$procs", $procs, $sections, $sectionUs, false);
} catch (Throwable $e) {
    bench_emit(['kind' => 'error', 'lib' => $lib, 'procs' => $procs, 'why' => $e->getMessage()]);
    exit(1);
}

// Sections that got the lock, in the order they entered.
$done = array_values(array_filter($timed['stamps'], fn ($s) => $s['entered'] > 0));
usort($done, fn ($a, $b) => $a['entered'] <=> $b['entered']);
$n = count($done);
$failed = count($timed['stamps']) - $n;

$waits = array_map(fn ($s) => ($s['entered'] - $s['asked']) / 1000, $done);
$lengths = array_map(fn ($s) => ($s['left'] - $s['entered']) / 1000, $done);
$meanSection = $n ? array_sum($lengths) / $n : 0.0;

/** Total length of the union of intervals [$from, $to] of the sections. */
function union_ns(array $sections, string $from, string $to): int
{
    usort($sections, fn ($a, $b) => $a[$from] <=> $b[$from]);
    $total = 0;
    $cursor = PHP_INT_MIN;
    foreach ($sections as $s) {
        $start = max($s[$from], $cursor);
        if ($s[$to] > $start) {
            $total += $s[$to] - $start;
            $cursor = $s[$to];
        }
    }
    return $total;
}

// Efficiency: of the time someone wanted the lock (asked until left), the
// share in which someone was inside a section. With no pause between
// sections that is all of the wall time.
$busy = union_ns($done, 'entered', 'left');
$demand = max(1, union_ns($done, 'asked', 'left'));
$wall = max(1, max(array_column($done, 'left') ?: [0]) - $timed['start']);

// Handoffs: one section left, the next entered, and it had asked before.
$handoffs = [];
for ($i = 1; $i < $n; $i++) {
    if ($done[$i]['asked'] < $done[$i - 1]['left']) {
        $handoffs[] = ($done[$i]['entered'] - $done[$i - 1]['left']) / 1000;
    }
}

// Client commands per section, from the watched pass.
$seen = $watched['monitor'];
$watchedSections = count(array_filter($watched['stamps'], fn ($s) => $s['entered'] > 0));
$clientCommands = array_sum($seen['client']);
arsort($seen['client']);

// Server time of the commands clients sent (see bench_client_usec()).
$usec = bench_usage_delta($timed['before'], $timed['after'], 'cmd_usec');
unset($usec['info']);
$clientUsec = bench_client_usec($usec, $seen);
$cpuUsec = $timed['after']['cpu_usec'] - $timed['before']['cpu_usec'];
$calls = bench_usage_delta($timed['before'], $timed['after'], 'cmd_calls');
unset($calls['info']);

bench_emit([
    'kind' => 'contended',
    'lib' => $lib,
    'procs' => $procs,
    'servers' => count($ports),
    'sections_each' => $sections,
    'section_us' => $sectionUs,
    'think_us' => (int) getenv('BENCH_THINK_US'),
    'spin' => (bool) getenv('BENCH_SPIN'),
    'sections' => $n,
    'failed' => $failed,
    'lost_updates' => $procs * $sections - $timed['counter'],
    'wall_s' => $wall / 1e9,
    'throughput' => $n / ($wall / 1e9),
    'efficiency' => $busy / $demand,
    'busy_share_of_wall' => $busy / $wall,
    'mean_section_us' => $meanSection,
    'fair_share_us' => $procs * $meanSection,
    'wait_p50_us' => bench_percentile($waits, 50),
    'wait_p99_us' => bench_percentile($waits, 99),
    'wait_max_us' => $waits ? max($waits) : null,
    'handoffs' => count($handoffs),
    'handoff_p50_us' => bench_percentile($handoffs, 50),
    'handoff_p99_us' => bench_percentile($handoffs, 99),
    'redis_usec_per_section' => $n ? $clientUsec / $n : null,
    'redis_usec_all_per_section' => $n ? array_sum($usec) / $n : null,
    'redis_cpu_usec_per_section' => $n ? $cpuUsec / $n : null,
    'server_calls_per_section' => $n ? array_sum($calls) / $n : null,
    'client_cmds_per_section' => $watchedSections ? $clientCommands / $watchedSections : null,
    'client_cmds' => $seen['client'],
    'lua_cmds' => $seen['lua'],
    'server_usec' => $usec,
    'server_calls' => $calls,
    'watched_sections' => $watchedSections,
]);
