<?php
/*
 * The flash-sale endpoint on Swoole\Http\Server (examples/swoole/flash_sale.php: coroutines
 * and hooks on), 1 and 4 workers, N buyers for 100 items, under each lock:
 *   rlock   rlock's queue (a release hands over at once; waits yield the coroutine)
 *   baton   a token in a Redis list, BLPOP/RPUSH on hooked phpredis (the fastest hand-over
 *           a coroutine app writes by hand; no owner check, no lease: not a lock)
 *   floor   the least a lock that checks its owner and hands over costs on Redis 7, which
 *           has no compare-and-set command (issue 30): a script that takes the key with SET
 *           NX or RPUSHes our token on a queue, and a BLPOP on a grant list of our own, to
 *           take it; a script to give it: the owner check, then LPOP the next waiter, SET it
 *           as owner and RPUSH its grant, or DEL when nobody waits (hooked phpredis; no lease
 *           for its queue, no fencing, no reentrancy)
 *   setnx   SET NX PX + 5 ms coroutine sleep between tries (the classic lock)
 *   poll    the same with 250 ms (friendsofhyperf/lock's wait)
 * req/s and p99 per row, medians over --runs (in rotated order: each run starts with another
 * lock), with the Redis commands, Redis' CPU and the endpoint's CPU per request; every round
 * checks that nothing was oversold.
 *
 *   php -d extension=swoole.so -d extension=modules/rlock.so bench/swoole.php \
 *       [--buyers=3000] [--concurrency=300] [--runs=3] [--workers=1,4] [--locks=rlock,floor,baton,setnx,poll]
 *       [--out=DIR]
 *
 * It starts a redis-server of its own on a free port, and the endpoint with the same php
 * and extensions as itself. --out: also DIR/swoole.dat, a row a line ("W worker(s) LOCK"
 * req/s p99), for bench/chart.gp.
 */

declare(strict_types=1);

$opt = getopt('', ['buyers::', 'concurrency::', 'runs::', 'workers::', 'locks::', 'out::']);
$buyers = (int) ($opt['buyers'] ?? 3000);
$conc = (int) ($opt['concurrency'] ?? 300);
$runs = (int) ($opt['runs'] ?? 3);
$workersList = array_map('intval', explode(',', $opt['workers'] ?? '1,4'));
$locks = explode(',', $opt['locks'] ?? 'rlock,floor,baton,setnx,poll');

function free_port(): int
{
    $s = stream_socket_server('tcp://127.0.0.1:0');
    $port = (int) explode(':', stream_socket_get_name($s, false))[1];
    fclose($s);
    return $port;
}

function wait_port(int $port, float $seconds = 10): void
{
    $until = microtime(true) + $seconds;
    while (!($s = @stream_socket_client("tcp://127.0.0.1:$port", $e, $m, 0.2))) {
        if (microtime(true) > $until) {
            throw new RuntimeException("nothing listens on $port");
        }
        usleep(20000);
    }
    fclose($s);
}

$rport = free_port();
$dir = sys_get_temp_dir();
exec("redis-server --port $rport --bind 127.0.0.1 --save '' --appendonly no --daemonize yes --dir $dir --maxclients 10000");
wait_port($rport);
$dsn = "redis://127.0.0.1:$rport";
// the extensions as this process loaded them: from its command line
$self = file_get_contents('/proc/self/cmdline');
$args = explode("\0", rtrim($self, "\0"));
$ini = [];
for ($i = 1; $i < count($args) - 1; $i++) {
    if ($args[$i] === '-d' && str_starts_with($args[$i + 1], 'extension=')) {
        $ini[] = '-d';
        $ini[] = $args[$i + 1];
    }
}

// The buyers are Swoole's own HTTP clients: no hooks (Co\run hooks everything by default, and
// without the curl extension Swoole warns of each curl function, into the report)
Co::set(['hook_flags' => 0]);

/** One round: [req/s, p99 ms, sold, answered, busy]. */
function round_of(int $port, int $buyers, int $conc): array
{
    $lat = [];
    $sold = $busy = 0;
    $t0 = hrtime(true);
    Co\run(function () use ($port, $buyers, $conc, &$lat, &$sold, &$busy) {
        $next = 0;
        $wg = new Swoole\Coroutine\WaitGroup();
        for ($c = 0; $c < $conc; $c++) {
            $wg->add();
            go(function () use ($port, $buyers, &$next, &$lat, &$sold, &$busy, $wg) {
                while (($n = $next++) < $buyers) {
                    $cli = new Swoole\Coroutine\Http\Client('127.0.0.1', $port);
                    $cli->set(['timeout' => 30]);
                    $t = hrtime(true);
                    $cli->get("/buy?user=u$n");
                    $lat[] = (hrtime(true) - $t) / 1e6;
                    $r = json_decode((string) $cli->body, true);
                    $sold += ($r['status'] ?? '') === 'ok';
                    $busy += $cli->statusCode !== 200;
                    $cli->close();
                }
                $wg->done();
            });
        }
        $wg->wait();
    });
    $wall = (hrtime(true) - $t0) / 1e9;
    sort($lat);
    return [count($lat) / $wall, $lat[(int) floor(0.99 * (count($lat) - 1))], $sold, count($lat), $busy];
}

function median(array $v): float
{
    sort($v);
    return (float) $v[intdiv(count($v), 2)];
}

/** A process group's CPU time (user + system) in ms, its processes as they are now. */
function group_cpu_ms(int $pgid): float
{
    static $tick = null;
    $tick ??= (int) trim((string) shell_exec('getconf CLK_TCK')) ?: 100;
    $t = 0;
    foreach (glob('/proc/[0-9]*/stat') ?: [] as $f) {
        $stat = @file_get_contents($f);
        // (the command's name, in parentheses, may hold spaces: the fields after its end)
        if ($stat === false || ($end = strrpos($stat, ')')) === false) {
            continue;
        }
        $fields = explode(' ', substr($stat, $end + 2));
        if ((int) $fields[2] === $pgid) {
            $t += (int) $fields[11] + (int) $fields[12];
        }
    }
    return $t * 1000 / $tick;
}

/** The Redis server's commands run (scripts' own included) and its CPU ms so far. */
function redis_usage(int $rport): array
{
    $info = (string) shell_exec("redis-cli -p $rport INFO all");
    preg_match_all('/^cmdstat_([^:]+):calls=(\d+)/m', $info, $m, PREG_SET_ORDER);
    $calls = 0;
    foreach ($m as [, $cmd, $n]) {
        // (this script's own: INFO, CONFIG, SCRIPT)
        if (!preg_match('/^(info|config|script)/', $cmd)) {
            $calls += (int) $n;
        }
    }
    preg_match('/^used_cpu_sys:([\d.]+)/m', $info, $sys);
    preg_match('/^used_cpu_user:([\d.]+)/m', $info, $user);
    return [$calls, ((float) $sys[1] + (float) $user[1]) * 1000];
}

// Each worker count: every lock's endpoint started, then the runs in rotated order (run r
// starts with the r-th lock), so that a machine whose load changes meanwhile weighs on every
// row alike. Per request besides req/s and p99: the Redis commands (the sale's own included,
// the same for every lock), Redis' CPU and the endpoint's (master, manager and workers).
$rows = [];
foreach ($workersList as $workers) {
    $procs = $ports = $got = [];
    foreach ($locks as $lock) {
        $ports[$lock] = $port = free_port();
        // (a process group of its own: the master, its manager and workers stopped together)
        $cmd = array_merge(['setsid', PHP_BINARY], $ini, [__DIR__ . '/../examples/swoole/flash_sale.php', "--port=$port",
            "--workers=$workers", "--redis=$dsn", "--lock=$lock"]);
        $procs[$lock] = proc_open($cmd, [1 => ['file', '/dev/null', 'w'], 2 => ['file', "$dir/flash_sale.$lock.log", 'w']], $pipes);
        wait_port($port);
    }
    for ($r = 0; $r < $runs; $r++) {
        $order = array_merge(array_slice($locks, $r % count($locks)), array_slice($locks, 0, $r % count($locks)));
        foreach ($order as $lock) {
            $port = $ports[$lock];
            $pgid = proc_get_status($procs[$lock])['pid'];
            $http = stream_context_create(['http' => ['timeout' => 120]]);
            file_get_contents("http://127.0.0.1:$port/reset?stock=100", false, $http);
            [$calls0, $rcpu0] = redis_usage($rport);
            $wcpu0 = group_cpu_ms($pgid);
            $one = round_of($port, $buyers, $conc);
            $wcpu1 = group_cpu_ms($pgid);
            [$calls1, $rcpu1] = redis_usage($rport);
            $one[] = ($calls1 - $calls0) / $one[3];
            $one[] = ($rcpu1 - $rcpu0) * 1000 / $one[3];
            $one[] = ($wcpu1 - $wcpu0) * 1000 / $one[3];
            $got[$lock][] = $one;
            $stats = json_decode((string) file_get_contents("http://127.0.0.1:$port/stats", false, $http), true);
            if ($stats['orders'] + $stats['stock'] !== 100 || $stats['buyers'] !== $stats['orders']) {
                fwrite(STDERR, "$lock x$workers: " . json_encode($stats) . " (oversold)\n");
            }
        }
    }
    foreach ($locks as $lock) {
        posix_kill(-proc_get_status($procs[$lock])['pid'], SIGKILL);
        proc_close($procs[$lock]);
        $g = $got[$lock];
        $rows[] = [$workers, $lock, median(array_column($g, 0)), median(array_column($g, 1)),
            median(array_column($g, 2)), median(array_column($g, 4)), median(array_column($g, 5)),
            median(array_column($g, 6)), median(array_column($g, 7))];
        fprintf(STDERR, "%d worker(s) %-6s %8.0f req/s  p99 %7.1f ms  sold %d  busy %d  redis cmds %.1f  redis cpu %.0f us  worker cpu %.0f us\n", ...end($rows));
    }
}
exec("redis-cli -p $rport shutdown nosave 2>/dev/null");

if (isset($opt['out'])) {
    file_put_contents($opt['out'] . '/swoole.dat', implode('', array_map(fn ($r) => sprintf("\"%d worker%s: %s\" %.0f %.1f\n",
        $r[0], $r[0] > 1 ? 's' : '', $r[1], $r[2], $r[3]), $rows)));
}
echo "| workers | lock | req/s | p99 ms | sold | 503 busy | req/s vs rlock | p99 vs rlock | Redis cmds/req | Redis CPU us/req | worker CPU us/req |\n";
echo "|---|---|---|---|---|---|---|---|---|---|---|\n";
foreach ($rows as [$w, $lock, $rps, $p99, $sold, $busy, $cmds, $rcpu, $wcpu]) {
    $base = array_values(array_filter($rows, fn ($r) => $r[0] === $w && $r[1] === 'rlock'))[0] ?? null;
    printf("| %d | %s | %.0f | %.1f | %d | %d | %s | %s | %.1f | %.0f | %.0f |\n", $w, $lock, $rps, $p99, $sold, $busy,
        $base ? sprintf('%.2fx', $rps / $base[2]) : '-', $base ? sprintf('%.2fx', $p99 / $base[3]) : '-', $cmds, $rcpu, $wcpu);
}
// the ratios issue 30 asks for: rlock's req/s against the floor's and the baton's, per worker count
foreach ($workersList as $w) {
    $of = fn (string $lock) => array_values(array_filter($rows, fn ($r) => $r[0] === $w && $r[1] === $lock))[0][2] ?? null;
    foreach (['floor', 'baton'] as $other) {
        if ($of('rlock') && $of($other)) {
            printf("%d worker(s): rlock / %s = %.2fx\n", $w, $other, $of('rlock') / $of($other));
        }
    }
}
