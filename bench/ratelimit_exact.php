<?php
// Rate limits under a flood: P processes hammer one limit of L per second for S seconds
// (each asks again as soon as it has its answer), through each limiter PHP shops use; how
// many they admit against what the limit allows (L x the seconds they hammered + the burst,
// L), then the same with the clocks of half of the processes SKEW seconds ahead (Debian's
// faketime): rlock decides on the server's clock, the others compute with their host's.
// Allowed is counted over the span of the server's clock the admissions were decided in (this
// machine's clock is the server's; a skewed process's times are put back by its skew).
// Medians of RUNS runs; per decision, the commands clients send (MONITOR, one short watched
// pass per limiter: commands scripts run are not counted) and the server's time in commands
// (INFO commandstats). Prints a markdown table, and one JSON line per run to bench/out/.
//
//   php -d extension=modules/rlock.so bench/ratelimit_exact.php
//   BENCH_RL_QUICK=1 ...     16 processes, 3 s, one run (about a minute)
//
// Knobs (environment): BENCH_RL_LIBS, BENCH_RL_PROCS (64), BENCH_RL_SECONDS (10),
// BENCH_RL_LIMIT (100), BENCH_RL_RUNS (3), BENCH_RL_SKEW (2, seconds; 0: no skewed runs),
// BENCH_HOST and BENCH_PORT (a redis-server to use; else one is started on a free port).
// bench/run.sh runs it with BENCH_RATELIMIT=1 (after the lock runs) or =only.
//
// The limiters, each the way its documentation shows, each limit on a fresh key:
// - rlock: RRateLimiter(L per 1000 ms)->tryAcquire(), GCRA in one script on the server's TIME.
// - rlock_laravel, rlock_symfony: the same through the bridge (RLock\Bridge\Laravel\RateLimiter,
//   the middleware's tooManyAttempts() + hit(); RLock\Bridge\Symfony\RateLimiterFactory's
//   fixed_window consume()).
// - laravel: Illuminate\Cache\RateLimiter over a RedisStore (phpredis), as the throttle
//   middleware runs it: tooManyAttempts($key, L), then hit($key, 1); admitted when the
//   check passed.
// - laravel_throttle: Redis::throttle($key)->allow(L)->every(1), Illuminate\Redis\Limiters\
//   DurationLimiter::acquire(): one EVAL, the window from the caller's microtime().
// - symfony_token_bucket, symfony_fixed_window: symfony/rate-limiter 5.4's RateLimiterFactory
//   (limit L; the bucket refilled L per second), state in CacheStorage over symfony/cache's
//   RedisAdapter, each decision inside a symfony/lock RedisStore lock (what makes it safe
//   across hosts), consume()->isAccepted().

declare(strict_types=1);
require __DIR__ . '/common.php';

const RL_LIBS = 'rlock rlock_laravel rlock_symfony laravel laravel_throttle symfony_token_bucket symfony_fixed_window';

/** The decision of $lib as a closure: true when admitted. */
function rl_decider(string $lib, string $host, int $port, int $limit, string $key): Closure
{
    $rlock = ['server' => "redis://$host:$port", 'prefix' => ''];
    $redis = function () use ($host, $port): Redis {
        $r = new Redis();
        $r->connect($host, $port, 2.0);
        return $r;
    };
    $laravel = function () use ($host, $port): Illuminate\Redis\RedisManager {
        bench_autoload('/usr/share/php/Illuminate/Cache/autoload.php', '/usr/share/php/Illuminate/Redis/autoload.php');
        return new Illuminate\Redis\RedisManager(null, 'phpredis', ['default' => ['host' => $host, 'port' => $port, 'timeout' => 2.0]]);
    };
    $symfony = function (array $config) use ($redis, $key): Closure {
        bench_autoload('/usr/share/php/Symfony/Component/RateLimiter/autoload.php', '/usr/share/php/Symfony/Component/Cache/autoload.php',
            '/usr/share/php/Symfony/Component/Lock/autoload.php');
        $r = $redis();
        $factory = new Symfony\Component\RateLimiter\RateLimiterFactory($config + ['id' => $key],
            new Symfony\Component\RateLimiter\Storage\CacheStorage(new Symfony\Component\Cache\Adapter\RedisAdapter($r)),
            new Symfony\Component\Lock\LockFactory(new Symfony\Component\Lock\Store\RedisStore($r)));
        $limiter = $factory->create('all');
        return fn (): bool => $limiter->consume()->isAccepted();
    };
    // Laravel's throttle middleware: the check, then the hit; admitted when the check passed
    $middleware = fn (Illuminate\Cache\RateLimiter $l): Closure => function () use ($l, $key, $limit): bool {
        if ($l->tooManyAttempts($key, $limit)) {
            return false;
        }
        $l->hit($key, 1);
        return true;
    };
    $bridge = function (): void {
        bench_autoload('/usr/share/php/Illuminate/Cache/autoload.php', '/usr/share/php/Symfony/Component/RateLimiter/autoload.php');
        require_once dirname(__DIR__) . '/bridge/autoload.php';
    };
    switch ($lib) {
        case 'rlock':
            $l = new RRateLimiter($key, $limit, 1000, $rlock);
            return fn (): bool => $l->tryAcquire();
        case 'rlock_laravel':
            $bridge();
            return $middleware(new RLock\Bridge\Laravel\RateLimiter($rlock, null, 1));
        case 'rlock_symfony':
            $bridge();
            $l = (new RLock\Bridge\Symfony\RateLimiterFactory(['id' => $key, 'policy' => 'fixed_window', 'limit' => $limit,
                'interval' => '1 second'], $rlock))->create('all');
            return fn (): bool => $l->consume()->isAccepted();
        case 'laravel':
            $manager = $laravel();
            return $middleware(new Illuminate\Cache\RateLimiter(new Illuminate\Cache\Repository(new Illuminate\Cache\RedisStore($manager))));
        case 'laravel_throttle':
            $connection = $laravel()->connection();
            $l = new Illuminate\Redis\Limiters\DurationLimiter($connection, $key, $limit, 1);
            return fn (): bool => $l->acquire();
        case 'symfony_token_bucket':
            return $symfony(['policy' => 'token_bucket', 'limit' => $limit, 'rate' => ['interval' => '1 second', 'amount' => $limit]]);
        case 'symfony_fixed_window':
            return $symfony(['policy' => 'fixed_window', 'limit' => $limit, 'interval' => '1 second']);
    }
    throw new InvalidArgumentException("no limiter $lib");
}

/**
 * A child: builds its decider, says "ready", waits for a line on stdin, hammers for
 * $seconds, prints {n: admitted, tries, t0, t1, first, last} (its start and end, and the
 * times around its first and last admissions; its clock put back by $skew: the server's).
 */
function rl_child(array $argv): void
{
    [, , $lib, $host, $port, $limit, $key, $seconds, $skew] = $argv;
    $decide = rl_decider($lib, $host, (int) $port, (int) $limit, $key);
    echo "ready\n";
    fgets(STDIN);
    $n = $tries = 0;
    $first = $last = null;
    $t0 = microtime(true);
    $end = $t0 + (float) $seconds;
    while (($t = microtime(true)) < $end) {
        $tries++;
        if ($decide()) {
            $n++;
            $first ??= $t;
            $last = microtime(true);
        }
    }
    // the span this process's admissions were decided in: from before the first to after the last
    echo json_encode(['n' => $n, 'tries' => $tries, 't0' => $t0 - (int) $skew, 't1' => microtime(true) - (int) $skew,
        'first' => $first === null ? null : $first - (int) $skew, 'last' => $last === null ? null : $last - (int) $skew]), "\n";
}

/** The php command line this one runs with: the rlock extension loaded, by -d when php.ini does not. */
function rl_php(): array
{
    static $cmd = null;
    if ($cmd === null) {
        $cmd = [PHP_BINARY];
        if (trim((string) shell_exec(escapeshellarg(PHP_BINARY) . ' -r "echo extension_loaded(\'rlock\') ? 1 : 0;"')) !== '1') {
            $cmd = array_merge($cmd, ['-d', 'extension=' . (getenv('BENCH_RLOCK_SO') ?: dirname(__DIR__) . '/modules/rlock.so')]);
        }
    }
    return $cmd;
}

/**
 * One pass: $procs children ($skewed of them $skew s ahead) hammer $lib's limit $key for
 * $seconds. Returns admitted, tries, span (s, server clock: the hammering's), admit_span (from
 * before the first admission to after the last: what the limit allowed is counted over), and the per-command calls and
 * us the server ran in it; with $monitor, the commands clients sent (MONITOR) instead.
 */
function rl_pass(string $lib, string $host, int $port, int $limit, int $procs, float $seconds, int $skewed, int $skew, bool $monitor): array
{
    $key = "rl-$lib-" . bin2hex(random_bytes(4));
    $children = [];
    for ($i = 0; $i < $procs; $i++) {
        $s = $i < $skewed ? $skew : 0;
        $cmd = array_merge(rl_php(), [__FILE__, 'child', $lib, $host, (string) $port, (string) $limit, $key, (string) $seconds, (string) $s]);
        $p = proc_open($s ? array_merge(['faketime', '-f', "+{$s}s"], $cmd) : $cmd, [['pipe', 'r'], ['pipe', 'w'], STDERR], $pipes);
        $children[] = [$p, $pipes];
    }
    foreach ($children as [, $pipes]) {
        if (trim((string) fgets($pipes[1])) !== 'ready') {
            throw new RuntimeException("$lib: a child did not start");
        }
    }
    $r = bench_redis($host, $port);
    if ($monitor) {
        $mon = stream_socket_client("tcp://$host:$port", $errno, $error, 2.0);
        fwrite($mon, "MONITOR\r\n");
        fgets($mon);
    }
    $before = bench_server_usage($r);
    foreach ($children as [, $pipes]) {
        fwrite($pipes[0], "go\n");
    }
    $n = $tries = 0;
    $t0 = $first = INF;
    $t1 = $last = -INF;
    foreach ($children as [$p, $pipes]) {
        $line = json_decode((string) fgets($pipes[1]), true);
        if (!is_array($line)) {
            throw new RuntimeException("$lib: a child failed");
        }
        fclose($pipes[0]);
        fclose($pipes[1]);
        proc_close($p);
        [$n, $tries, $t0, $t1] = [$n + $line['n'], $tries + $line['tries'], min($t0, $line['t0']), max($t1, $line['t1'])];
        if ($line['n'] > 0) {
            [$first, $last] = [min($first, $line['first']), max($last, $line['last'])];
        }
    }
    $after = bench_server_usage($r);
    $row = ['admitted' => $n, 'tries' => $tries, 'span' => $t1 - $t0, 'admit_span' => $n > 0 ? $last - $first : 0.0,
        'calls' => bench_usage_delta($before, $after, 'cmd_calls'), 'usec' => bench_usage_delta($before, $after, 'cmd_usec')];
    if ($monitor) {
        $r->echo('rl-monitor-stop');
        $sent = 0;
        while (($l = fgets($mon)) !== false && !str_contains($l, 'rl-monitor-stop')) {
            if (preg_match('/^\+\d+\.\d+ \[\d+ ([^\]]+)\] "([^"]+)"/', $l, $m) && $m[1] !== 'lua' && strtolower($m[2]) !== 'info') {
                $sent++;
            }
        }
        fclose($mon);
        $row['sent'] = $sent;
    }
    $r->close();
    return $row;
}

/** The median of a list of numbers. */
function rl_median(array $xs): float
{
    sort($xs);
    $n = count($xs);
    return $n % 2 ? (float) $xs[intdiv($n, 2)] : ($xs[$n / 2 - 1] + $xs[$n / 2]) / 2;
}

/** A redis-server of our own on a free port, stopped at exit; its port. */
function rl_start_redis(): int
{
    $s = stream_socket_server('tcp://127.0.0.1:0');
    $port = (int) explode(':', stream_socket_get_name($s, false))[1];
    fclose($s);
    $dir = sys_get_temp_dir() . '/rlock-bench-rl-' . getmypid();
    @mkdir($dir);
    $p = proc_open(['redis-server', '--port', (string) $port, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', $dir],
        [['file', '/dev/null', 'r'], ['file', "$dir/redis.log", 'w'], ['file', "$dir/redis.log", 'a']], $pipes);
    register_shutdown_function(function () use ($p, $dir) {
        proc_terminate($p);
        proc_close($p);
        array_map('unlink', glob("$dir/*"));
        @rmdir($dir);
    });
    for ($i = 0; $i < 100; $i++) {
        try {
            bench_redis('127.0.0.1', $port)->ping();
            return $port;
        } catch (RedisException) {
            usleep(50000);
        }
    }
    throw new RuntimeException("redis-server did not start on $port");
}

if (($argv[1] ?? '') === 'child') {
    rl_child($argv);
    exit(0);
}

$quick = getenv('BENCH_RL_QUICK') !== false && getenv('BENCH_RL_QUICK') !== '';
$libs = preg_split('/\s+/', trim(getenv('BENCH_RL_LIBS') ?: RL_LIBS));
$procs = (int) (getenv('BENCH_RL_PROCS') ?: ($quick ? 16 : 64));
$seconds = (float) (getenv('BENCH_RL_SECONDS') ?: ($quick ? 3 : 10));
$limit = (int) (getenv('BENCH_RL_LIMIT') ?: 100);
$runs = (int) (getenv('BENCH_RL_RUNS') ?: ($quick ? 1 : 3));
$skew = (int) (getenv('BENCH_RL_SKEW') === false ? 2 : getenv('BENCH_RL_SKEW'));
$host = getenv('BENCH_HOST') ?: '127.0.0.1';
$port = (int) (getenv('BENCH_PORT') ?: 0) ?: rl_start_redis();
$out = __DIR__ . '/out';
@mkdir($out);
$jsonl = fopen("$out/ratelimit.jsonl", 'w');
$say = fn (string $s) => fwrite(STDERR, "bench: $s\n");

$results = [];
foreach ($libs as $lib) {
    $say("ratelimit: $lib, watched pass (MONITOR)");
    $watched = rl_pass($lib, $host, $port, $limit, min($procs, 16), 1.0, 0, 0, true);
    $results[$lib]['sent'] = $watched['sent'] / max(1, $watched['tries']);
    foreach ($skew ? [0, $skew] : [0] as $s) {
        for ($run = 1; $run <= $runs; $run++) {
            $say("ratelimit: $lib, $procs processes x {$seconds} s" . ($s ? ", half of them $s s ahead" : '') . ", run $run of $runs");
            $row = rl_pass($lib, $host, $port, $limit, $procs, $seconds, $s ? intdiv($procs, 2) : 0, $s, false);
            $row += ['lib' => $lib, 'skew' => $s, 'run' => $run, 'procs' => $procs, 'limit' => $limit,
                'allowed' => $limit + (int) floor($row['admit_span'] * $limit)];
            unset($row['calls']['info'], $row['usec']['info']);
            $row['redis_us'] = array_sum($row['usec']) / max(1, $row['tries']);
            fwrite($jsonl, json_encode(['kind' => 'ratelimit'] + $row) . "\n");
            $results[$lib][$s][] = $row;
        }
    }
}

$names = ['rlock' => '**rlock** RRateLimiter', 'rlock_laravel' => 'Laravel RateLimiter over rlock\'s bridge',
    'rlock_symfony' => 'symfony fixed_window over rlock\'s bridge', 'laravel' => 'Laravel RateLimiter (tooManyAttempts + hit)',
    'laravel_throttle' => 'Laravel Redis::throttle (DurationLimiter)', 'symfony_token_bucket' => 'symfony token_bucket',
    'symfony_fixed_window' => 'symfony fixed_window'];
$skewHead = $skew ? " | admitted, $skew s skew | / allowed" : '';
echo "\n$procs processes, one limit of $limit/s (burst $limit), each hammering $seconds s, medians of $runs run(s)"
    . ($skew ? "; skew: half of the processes $skew s ahead (faketime)" : '') . ". Allowed: $limit + $limit/s x the span"
    . " of the server's clock the admissions were decided in (from before the first to after the last)\n\n";
echo "| limiter | admitted | allowed (span) | / allowed$skewHead | decisions/s | client cmds/decision | Redis us/decision |\n";
echo '|---|---:|---:|---:|' . ($skew ? '---:|---:|' : '') . "---:|---:|---:|\n";
foreach ($libs as $lib) {
    $m = fn (int $s, Closure $f) => rl_median(array_map($f, $results[$lib][$s]));
    $ratio = fn (int $s) => sprintf('%.3fx', $m($s, fn ($r) => $r['admitted'] / $r['allowed']));
    printf("| %s | %d | %d (%.2f s) | %s%s | %d | %.2f | %.1f |\n", $names[$lib] ?? $lib,
        $m(0, fn ($r) => $r['admitted']), $m(0, fn ($r) => $r['allowed']), $m(0, fn ($r) => $r['admit_span']), $ratio(0),
        $skew ? sprintf(' | %d | %s', $m($skew, fn ($r) => $r['admitted']), $ratio($skew)) : '',
        $m(0, fn ($r) => $r['tries'] / $r['span']), $results[$lib]['sent'], $m(0, fn ($r) => $r['redis_us']));
}
