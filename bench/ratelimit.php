<?php
/*
 * RRateLimiter's own costs, on a redis-server of its own (started on a free loopback port):
 *  1. Redis CPU per decision: N tryAcquire() (one EVALSHA each) against N bare counters, the
 *     INCR + PEXPIRE pipeline userland limiters send, each measured by INFO's CPU
 *     (used_cpu_user + used_cpu_sys, the server's whole work: reading, parsing, running,
 *     replying) and by INFO commandstats (the commands' own usec); medians of 3.
 *  2. acquire()'s wake precision: one process takes a limit of 1 per T back to back with
 *     acquire(); how late each returns past its due time, both on the server's clock (the
 *     TAT read before, TIME right after): p50, p99, max.
 *  3. acquire() under contention, fair: P processes wait for 1 limit; each wait against the
 *     fair share (P x T: each process gets every P-th permit).
 *
 *   php -d extension=modules/rlock.so bench/ratelimit.php [decisions=20000]
 *
 * The peers' exactness table (Laravel, symfony/rate-limiter) is bench/ratelimit-peers.php's.
 */

declare(strict_types=1);

$decisions = (int) ($argv[1] ?? 20000);
if (!extension_loaded('rlock') || !extension_loaded('redis')) {
    fwrite(STDERR, "needs the rlock and redis extensions loaded\n");
    exit(1);
}

// a server of our own
$s = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) explode(':', stream_socket_get_name($s, false))[1];
fclose($s);
$dir = sys_get_temp_dir() . "/rlock-bench-rate-$port";
@mkdir($dir);
exec("redis-server --port $port --bind 127.0.0.1 --save '' --appendonly no --daemonize yes --dir $dir --pidfile $dir/redis.pid");
register_shutdown_function(function () use ($port, $dir) {
    exec("redis-cli -p $port shutdown nosave 2>/dev/null");
    array_map('unlink', glob("$dir/*") ?: []);
    @rmdir($dir);
});
$r = new Redis();
for ($i = 0;; $i++) {
    try {
        $r->connect('127.0.0.1', $port, 1);
        break;
    } catch (RedisException $e) {
        if ($i === 200) {
            throw $e;
        }
        usleep(20000);
    }
}
$o = ['server' => "redis://127.0.0.1:$port", 'prefix' => 'bench:'];

function info_cpu(Redis $r): float
{
    $i = $r->info('cpu');
    return (float) $i['used_cpu_user'] + (float) $i['used_cpu_sys'];
}

/** Commandstats usec of the commands named, summed. */
function info_usec(Redis $r, array $cmds): float
{
    $stats = $r->info('commandstats');
    $usec = 0.0;
    foreach ($cmds as $c) {
        if (preg_match('/usec=(\d+)/', $stats["cmdstat_$c"] ?? '', $m)) {
            $usec += (float) $m[1];
        }
    }
    return $usec;
}

function median(array $xs): float
{
    sort($xs);
    return $xs[intdiv(count($xs), 2)];
}

function pct(array $xs, float $p): float
{
    sort($xs);
    return $xs[min(count($xs) - 1, (int) ceil($p / 100 * count($xs)) - 1)];
}

// 1. Redis CPU per decision
$runs = ['rlock' => [], 'incr' => []];
$cmdUsec = ['rlock' => [], 'incr' => []];
for ($run = 0; $run < 3; $run++) {
    foreach (['rlock', 'incr'] as $how) {
        $r->rawCommand('CONFIG', 'RESETSTAT');
        $limiters = [];
        for ($k = 0; $k < 100; $k++) {
            $limiters[] = new RRateLimiter("ip:$run:$k", 1000000, 1000, $o);
        }
        $cpu = info_cpu($r);
        for ($i = 0; $i < $decisions; $i++) {
            $k = $i % 100;
            if ($how === 'rlock') {
                $limiters[$k]->tryAcquire();
            } else {
                // the userland counter: one window per second
                $key = "bench:count:$run:$k:" . intdiv($i, 1000);
                $r->multi(Redis::PIPELINE)->incr($key)->pExpire($key, 2000)->exec();
            }
        }
        $cpuUs = (info_cpu($r) - $cpu) * 1e6;
        $runs[$how][] = $cpuUs / $decisions;
        $cmdUsec[$how][] = info_usec($r, $how === 'rlock' ? ['evalsha'] : ['incr', 'pexpire']) / $decisions;
    }
}
$cpuR = median($runs['rlock']);
$cpuI = median($runs['incr']);
$cmdR = median($cmdUsec['rlock']);
$cmdI = median($cmdUsec['incr']);
printf("## Redis CPU per decision (%d decisions, medians of 3)\n\n", $decisions);
printf("| | INFO cpu, us per decision | commandstats usec per decision |\n|---|---|---|\n");
printf("| RRateLimiter::tryAcquire() (1 EVALSHA) | %.2f | %.2f |\n", $cpuR, $cmdR);
printf("| INCR + PEXPIRE pipeline | %.2f | %.2f |\n", $cpuI, $cmdI);
printf("| ratio | %.2fx | %.2fx |\n\n", $cpuR / $cpuI, $cmdR / $cmdI);

// 2. wake precision: the due time is the TAT stored before the acquire (burst 1: a permit is
// due at the TAT), read with GET; the return, the server's TIME read right after (half a
// round trip late: about 0.03 ms here)
function lateness(Redis $r, RRateLimiter $l, string $key, int $n): array
{
    $late = [];
    for ($i = 0; $i < $n; $i++) {
        $v = $r->get($key);
        $l->acquire(1, 1000);
        [$sec, $us] = $r->time();
        if (is_string($v) && preg_match('/^(\d+) (\d+)$/', $v, $m)) {
            $late[] = ((int) $sec * 1000000 + (int) $us - (int) $m[1]) / 1000;
        }
    }
    return $late;
}
$per = 5;
printf("## acquire(): wake precision (400 acquires of 1 per %d ms, back to back)\n\n", $per);
printf("| | returned after due, ms: p50 | p99 | max |\n|---|---|---|---|\n");
foreach ([true, false] as $fair) {
    $name = $fair ? 'wake' : 'wake-unfair';
    // 1 per $per ms: 100 / $per per 100 ms one at a time (a period is at least 100 ms)
    $l = new RRateLimiter($name, intdiv(100, $per), 100, $o + ['burst' => 1, 'fair' => $fair]);
    $l->tryAcquire();
    $late = lateness($r, $l, "}{bench:$name}:rate", 400);
    printf("| %s | %.3f | %.3f | %.3f |\n", $fair ? 'fair (reserved, one round trip)' : 'not fair (the script again when due)',
        pct($late, 50), pct($late, 99), max($late));
}
echo "\n";

// 3. contention, fair: P processes, 1 permit per T
$procs = 8;
$per = 10;
$code = '$l = new RRateLimiter("shared", ' . intdiv(100, $per) . ', 100, ' . var_export($o + ['burst' => 1], true) . ');'
    . '$w = []; $end = microtime(true) + 3;'
    . 'while (microtime(true) < $end) { $t = hrtime(true); $ok = $l->acquire(1, 5000); $w[] = (hrtime(true) - $t) / 1e6; }'
    . 'echo json_encode($w);';
$ext = ini_get('extension_dir');
$children = [];
for ($i = 0; $i < $procs; $i++) {
    $children[] = popen(escapeshellarg(PHP_BINARY) . ' -d extension=' . escapeshellarg(
        (getenv('RLOCK_EXT') ?: dirname(__DIR__) . '/modules/rlock.so')) . ' -r ' . escapeshellarg($code), 'r');
}
$waits = [];
foreach ($children as $c) {
    $waits = array_merge($waits, json_decode(stream_get_contents($c), true) ?: []);
    pclose($c);
}
$share = $procs * $per;
printf("## acquire() under contention (%d processes, 1 permit per %d ms, fair: share %d ms)\n\n", $procs, $per, $share);
printf("| wait, ms | p50 %.1f | p99 %.1f | p99 / fair share %.2f |\n|---|---|---|---|\n", pct($waits, 50), pct($waits, 99), pct($waits, 99) / $share);
