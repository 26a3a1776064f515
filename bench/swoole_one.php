<?php
/*
 * One process, C coroutines (hooks on) contending for one key, a section being one INCR on
 * hooked phpredis: sections/s and the process' CPU per section (user + system, less swayed
 * by a loaded machine than the rate), for rlock's synchronized() and for issue 30's floor
 * (an owner-checked FIFO lock: examples/swoole/floor_lock.php, flash_sale.php's --lock=floor),
 * in rotated order, medians of --runs. Its own redis-server on a free port.
 *
 *   php -d extension=swoole.so -d extension=modules/rlock.so bench/swoole_one.php \
 *       [--concurrency=50,200] [--seconds=2] [--runs=3] [--locks=rlock,floor]
 */

declare(strict_types=1);

$opt = getopt('', ['concurrency::', 'seconds::', 'runs::', 'locks::']);
$concs = array_map('intval', explode(',', $opt['concurrency'] ?? '50,200'));
$seconds = (float) ($opt['seconds'] ?? 2);
$runs = (int) ($opt['runs'] ?? 3);

require __DIR__ . '/../examples/swoole/floor_lock.php';

$s = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) explode(':', stream_socket_get_name($s, false))[1];
fclose($s);
exec("redis-server --port $port --bind 127.0.0.1 --save '' --appendonly no --daemonize yes --maxclients 10000");
for ($i = 0; $i < 100 && !@stream_socket_client("tcp://127.0.0.1:$port"); $i++) {
    usleep(20000);
}

function cpu_us(): float
{
    $r = getrusage();
    return $r['ru_utime.tv_sec'] * 1e6 + $r['ru_utime.tv_usec'] + $r['ru_stime.tv_sec'] * 1e6 + $r['ru_stime.tv_usec'];
}

/** One run: [sections/s, CPU us a section]. */
function run_one(string $lock, int $port, int $conc, float $seconds): array
{
    $n = 0;
    $cpu0 = cpu_us();
    $t0 = hrtime(true);
    Co\run(function () use ($lock, $port, $conc, $seconds, &$n) {
        $until = microtime(true) + $seconds;
        $wg = new Swoole\Coroutine\WaitGroup();
        for ($c = 0; $c < $conc; $c++) {
            $wg->add();
            go(function () use ($lock, $port, $until, &$n, $wg) {
                $r = new Redis();
                $r->connect('127.0.0.1', $port);
                $token = bin2hex(random_bytes(16));
                $keys = ['one', 'one:queue', "one:grant:$token"];
                $l = new RLock('one', ['server' => "redis://127.0.0.1:$port", 'ttl' => 5000]);
                while (microtime(true) < $until) {
                    if ($lock === 'rlock') {
                        $l->synchronized(fn () => $r->incr('counter'), 3000);
                    } else {
                        $r->multi(Redis::PIPELINE);
                        $r->evalSha(sha1(FLOOR_ACQUIRE), [...$keys, $token, 5000], 3);
                        $r->blPop([$keys[2]], 3);
                        [, $popped] = $r->exec();
                        if (!$popped) {
                            throw new RuntimeException('the floor timed out');
                        }
                        $r->incr('counter');
                        $r->evalSha(sha1(FLOOR_RELEASE), [$keys[0], $keys[1], $token, 5000], 2);
                    }
                    $n++;
                }
                $wg->done();
            });
        }
        $wg->wait();
    });
    $wall = (hrtime(true) - $t0) / 1e9;
    return [$n / $wall, (cpu_us() - $cpu0) / max($n, 1)];
}

Co::set(['hook_flags' => SWOOLE_HOOK_TCP]);
$admin = new Redis();
$admin->connect('127.0.0.1', $port);
$admin->script('load', FLOOR_ACQUIRE);
$admin->script('load', FLOOR_RELEASE);
$locks = explode(',', $opt['locks'] ?? 'rlock,floor');
$med = function (array $v): float { sort($v); return (float) $v[intdiv(count($v), 2)]; };
echo "| C | lock | sections/s | CPU us/section |\n|---|---|---|---|\n";
foreach ($concs as $conc) {
    $got = [];
    for ($r = 0; $r < $runs; $r++) {
        foreach ($r % 2 ? array_reverse($locks) : $locks as $lock) {
            $got[$lock][] = run_one($lock, $port, $conc, $seconds);
        }
    }
    foreach ($locks as $lock) {
        printf("| %d | %s | %.0f | %.1f |\n", $conc, $lock, $med(array_column($got[$lock], 0)), $med(array_column($got[$lock], 1)));
    }
    if (!isset($got['rlock'], $got['floor'])) {
        continue;
    }
    printf("C=%d: rlock / floor = %.2fx sections/s, %.2fx CPU a section\n", $conc,
        $med(array_column($got['rlock'], 0)) / $med(array_column($got['floor'], 0)),
        $med(array_column($got['rlock'], 1)) / $med(array_column($got['floor'], 1)));
}
try {
    $admin->rawCommand('shutdown', 'nosave');
} catch (RedisException) {
    // (the server went: its answer to SHUTDOWN)
}
