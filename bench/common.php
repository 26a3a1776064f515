<?php
// Shared by the bench drivers: settings from the environment, loading an
// adapter, Redis INFO parsing and small statistics.

declare(strict_types=1);

const BENCH_RELEASE_LUA = "if redis.call('get', KEYS[1]) == ARGV[1] then "
    . "return redis.call('del', KEYS[1]) else return 0 end";

/** Settings run.sh exports; the same for every library. */
function bench_config(): array
{
    return [
        'host' => getenv('BENCH_HOST') ?: '127.0.0.1',
        'port' => (int) (getenv('BENCH_PORT') ?: 6379),
        'counter_port' => (int) (getenv('BENCH_COUNTER_PORT') ?: 6379),
        'ttl_ms' => (int) (getenv('BENCH_TTL_MS') ?: 30000),
        'wait_ms' => (int) (getenv('BENCH_WAIT_MS') ?: 60000),
        'tmp' => getenv('BENCH_TMP') ?: sys_get_temp_dir(),
        'pass_timeout_s' => (int) (getenv('BENCH_PASS_TIMEOUT') ?: 120),
        'redlock_ports' => bench_ports(getenv('BENCH_REDLOCK_PORTS') ?: ''),
        'cluster_ports' => bench_ports(getenv('BENCH_CLUSTER_PORTS') ?: ''),
    ];
}

/** "6380 6381" into [6380, 6381]. */
function bench_ports(string $list): array
{
    return array_map('intval', preg_split('/[\s,]+/', trim($list), -1, PREG_SPLIT_NO_EMPTY));
}

/**
 * The ports of the servers a library's locks live on, which the contended
 * pass watches (MONITOR, INFO) and sums: the 5 Redlock masters, the 3 cluster
 * masters, or the one lock server of everyone else.
 */
function bench_lock_ports(string $lib, array $cfg): array
{
    return match ($lib) {
        'rlock_redlock' => $cfg['redlock_ports'],
        'rlock_cluster' => $cfg['cluster_ports'],
        default => [$cfg['port']],
    };
}

/**
 * An adapter file returns function (array $cfg): Closure. Calling it connects
 * (do it in the process that will use the connection); the Closure it returns
 * takes a key and makes a fresh lock object: [lock(): bool, unlock(): bool].
 * A lock that needs its key set up before the first lock() (the baton) returns
 * ['connect' => that function, 'prepare' => function (array $cfg, string $key): void]
 * instead; bench_prepare() runs it, once per key, before any process locks.
 * $cfg: host, port, ttl_ms, wait_ms, and persistent (php-fpm: pconnect).
 */
function bench_adapter(string $lib): Closure
{
    $adapter = bench_adapter_file($lib);
    return is_array($adapter) ? $adapter['connect'] : $adapter;
}

/** Sets $key up for $lib's locks, if its adapter says how (a no-op for most). */
function bench_prepare(string $lib, array $cfg, string $key): void
{
    $adapter = bench_adapter_file($lib);
    if (is_array($adapter) && isset($adapter['prepare'])) {
        $adapter['prepare']($cfg, $key);
    }
}

/** What bench/lib/$lib.php returns, required once (an adapter may declare a class). */
function bench_adapter_file(string $lib): Closure|array
{
    static $loaded = [];
    $file = __DIR__ . "/lib/$lib.php";
    if (!preg_match('/^[a-z0-9_]+$/', $lib) || !is_file($file)) {
        throw new InvalidArgumentException("no adapter bench/lib/$lib.php");
    }
    return $loaded[$lib] ??= require $file;
}

function bench_redis(string $host, int $port): Redis
{
    $r = new Redis();
    $r->connect($host, $port, 2.0);
    return $r;
}

/**
 * The phpredis connection an adapter locks with: persistent under php-fpm
 * ($cfg['persistent'], as the shop's own connection), a plain one in the bench.
 */
function bench_lock_redis(array $cfg): Redis
{
    $r = new Redis();
    if ($cfg['persistent'] ?? false) {
        $r->pconnect($cfg['host'], $cfg['port'], 2.0);
    } else {
        $r->connect($cfg['host'], $cfg['port'], 2.0);
    }
    return $r;
}

/**
 * The seconds a BLPOP of $redis waits within $cfg['wait_ms'] (phpredis 5 takes whole seconds),
 * its socket made to outlive that wait.
 */
function bench_blpop_seconds(Redis $redis, array $cfg): int
{
    $seconds = max(1, intdiv($cfg['wait_ms'] + 999, 1000));
    $redis->setOption(Redis::OPT_READ_TIMEOUT, $seconds + 1);
    return $seconds;
}

/**
 * The RLock options of the adapters that lock with rlock (itself or through a framework
 * bridge): the key as the peers name theirs (no prefix), persistent connections unless
 * $cfg says otherwise.
 */
function bench_rlock_options(array $cfg): array
{
    if (!class_exists('RLock')) {
        throw new RuntimeException('the rlock extension is not loaded');
    }
    return [
        'server' => "redis://{$cfg['host']}:{$cfg['port']}",
        'prefix' => '',
        'ttl' => $cfg['ttl_ms'],
        'wait' => $cfg['wait_ms'],
        'persistent' => $cfg['persistent'] ?? true,
    ];
}

/**
 * What the server has spent so far: per command, microseconds and calls from
 * INFO commandstats, and its CPU time (user + system) in microseconds.
 */
function bench_server_usage(Redis $r): array
{
    $usage = ['cmd_usec' => [], 'cmd_calls' => [], 'cpu_usec' => 0.0];
    foreach ($r->info('commandstats') as $name => $value) {
        if (preg_match('/^cmdstat_(.+)$/', $name, $m)
            && preg_match('/calls=(\d+),usec=(\d+)/', $value, $v)) {
            $usage['cmd_calls'][$m[1]] = (int) $v[1];
            $usage['cmd_usec'][$m[1]] = (int) $v[2];
        }
    }
    $cpu = $r->info('cpu');
    $usage['cpu_usec'] = ((float) $cpu['used_cpu_user'] + (float) $cpu['used_cpu_sys']) * 1e6;
    return $usage;
}

/** bench_server_usage() of several servers, added up. */
function bench_sum_usage(array $usages): array
{
    $sum = ['cmd_usec' => [], 'cmd_calls' => [], 'cpu_usec' => 0.0];
    foreach ($usages as $usage) {
        foreach (['cmd_usec', 'cmd_calls'] as $field) {
            foreach ($usage[$field] as $cmd => $n) {
                $sum[$field][$cmd] = ($sum[$field][$cmd] ?? 0) + $n;
            }
        }
        $sum['cpu_usec'] += $usage['cpu_usec'];
    }
    return $sum;
}

/** Per-command difference of two bench_server_usage() maps. */
function bench_usage_delta(array $before, array $after, string $field): array
{
    $delta = [];
    foreach ($after[$field] as $cmd => $n) {
        $d = $n - ($before[$field][$cmd] ?? 0);
        if ($d > 0) {
            $delta[$cmd] = $d;
        }
    }
    return $delta;
}

/** Nearest-rank percentile of a list of numbers; null when empty. */
function bench_percentile(array $xs, float $p): ?float
{
    if (!$xs) {
        return null;
    }
    sort($xs);
    $rank = (int) ceil($p / 100 * count($xs));
    return (float) $xs[max(0, min(count($xs) - 1, $rank - 1))];
}

function bench_emit(array $row): void
{
    echo json_encode($row, JSON_UNESCAPED_SLASHES), "\n";
}

/**
 * The server time of the commands clients sent: INFO commandstats counts a command a
 * script ran twice, in its own line and inside EVAL/EVALSHA's time. Each command's time
 * counts only for the share of its calls that came from clients ($seen: what MONITOR saw
 * in a watched pass of the same work, bench_monitor()). $usec: per command, as
 * bench_usage_delta() gives it.
 */
function bench_client_usec(array $usec, array $seen): float
{
    unset($usec['info']);
    $clientUsec = 0.0;
    foreach ($usec as $cmd => $us) {
        $fromClients = $seen['client'][$cmd] ?? 0;
        $fromScripts = $seen['lua'][$cmd] ?? 0;
        $share = $fromClients + $fromScripts > 0 ? $fromClients / ($fromClients + $fromScripts) : 1.0;
        $clientUsec += $us * $share;
    }
    return $clientUsec;
}

/**
 * The Redis-time floor of a lock that does not poll, per handed-over section: one BLPOP
 * (rlock's, $rlock), one compare-and-delete script and one SET (the peer's with the least
 * Redis time per section, $peer), each in usec per call from INFO commandstats of the
 * timed pass. [floor, [blpop, release, set]]; the floor null when one is missing.
 */
function bench_no_poll_floor(?array $rlock, ?array $peer): array
{
    $perCall = function (?array $r, array $cmds): ?float {
        $us = $calls = 0;
        foreach ($cmds as $cmd) {
            $us += $r['server_usec'][$cmd] ?? 0;
            $calls += $r['server_calls'][$cmd] ?? 0;
        }
        return $calls ? $us / $calls : null;
    };
    $parts = ['blpop' => $perCall($rlock, ['blpop']), 'release' => $perCall($peer, ['eval', 'evalsha']),
        'set' => $perCall($peer, ['set'])];
    return [in_array(null, $parts, true) ? null : array_sum($parts), $parts];
}

/**
 * Load the framework's classes as an app built for production does (composer's
 * authoritative class map, opcache.preload under php-fpm, as symfony's and Laravel's
 * deployment guides advise): the packages' own autoloaders ($files: Debian's per-package
 * autoload.php, each requiring its dependencies' and scanning the include path for its
 * suggestions) are required at the first class that is missing, not in every request,
 * where the demo's php-fpm has them all preloaded (examples/seckill/preload.php).
 */
function bench_autoload(string ...$files): void
{
    $load = static function (string $class) use (&$load, $files): void {
        spl_autoload_unregister($load);
        foreach ($files as $file) {
            require_once $file;
        }
        foreach (spl_autoload_functions() as $loader) {
            if (class_exists($class, false) || interface_exists($class, false) || trait_exists($class, false)) {
                return;
            }
            $loader($class);
        }
    };
    spl_autoload_register($load);
}
