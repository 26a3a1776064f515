<?php
// The semaphore benchmark: P processes share N permits; each, for S seconds, takes a
// permit, holds it C us (a sleep: the section), gives it back. Sections per second, and
// the p50/p99/max of the wait (from asking to having), the fewest sections a process got
// (starvation), and per section the redis-server's CPU us and commands. One library per run:
//
//   php -d extension=modules/rlock.so bench/semaphore.php LIB PORT [P N C S RATE]
//
// LIB: rlock (RSemaphore::acquire, woken by a release), laravel (Redis::funnel: the
// ConcurrencyLimiter of illuminate/redis 8, ->limit(N)->block(): an EVAL over N slot keys,
// retried every 250 ms), symfony (symfony/semaphore 5.4 over its RedisStore; acquire() never
// blocks: retried every 10 ms, the loop its documentation leaves to the caller).
// Run all three with bench/semaphore.sh.
//
// RATE (requests/s offered by all processes together; 0, the default: closed loop): each
// process is given requests at random (Poisson) arrival times, and a request's wait runs
// from its arrival, so a process kept waiting also keeps its later requests waiting. A
// closed loop records a wait only when a process gets to ask: a process starved for a
// second asks once, so the waits it was not there to record never count (coordinated
// omission). With a rate, every request counts, as every buyer of a web shop does.

declare(strict_types=1);

[, $lib, $port] = $argv + [null, null, null];
$procs = (int) ($argv[3] ?? 32);
$permits = (int) ($argv[4] ?? 5);
$section_us = (int) ($argv[5] ?? 1000);
$seconds = (float) ($argv[6] ?? 3);
$rate = (float) ($argv[7] ?? 0);
$port = (int) $port;
$name = "bench-sem-$lib-" . getmypid();

/** fn (): [take, give]: take() blocks until a permit is ours. */
$adapter = match ($lib) {
    'rlock' => function () use ($port, $permits, $name): array {
        $s = new RSemaphore($name, $permits, ['server' => "redis://127.0.0.1:$port", 'ttl' => 30000, 'wait' => 60000]);
        return [fn () => $s->acquire(), fn () => $s->release()];
    },
    'laravel' => function () use ($port, $permits, $name): array {
        require_once '/usr/share/php/Illuminate/Redis/autoload.php';
        $redis = new Illuminate\Redis\RedisManager(null, 'phpredis', ['default' => ['host' => '127.0.0.1', 'port' => $port, 'timeout' => 2.0]]);
        $conn = $redis->connection();
        // Redis::funnel($name)->limit(N)->block(60)->then($section): the section runs inside
        // then(); the bench's own take/give split it: take() blocks in funnel, give() ends it
        return [function () use ($conn, $permits, $name) {
            $limiter = new Illuminate\Redis\Limiters\ConcurrencyLimiter($conn, $name, $permits, 30);
            return $limiter;
        }, null];
    },
    'symfony' => function () use ($port, $permits, $name): array {
        require_once '/usr/share/php/Symfony/Component/Semaphore/autoload.php';
        $r = new Redis();
        $r->connect('127.0.0.1', $port);
        $factory = new Symfony\Component\Semaphore\SemaphoreFactory(new Symfony\Component\Semaphore\Store\RedisStore($r));
        $held = null;
        return [function () use ($factory, $name, $permits, &$held) {
            $held = $factory->createSemaphore($name, $permits, 1, 30.0, false);
            while (!$held->acquire()) {
                usleep(10000);
            }
        }, function () use (&$held) {
            $held->release();
        }];
    },
};

/** The redis-server's CPU seconds so far (INFO cpu), and its commands processed. */
$redis_cost = function () use ($port): array {
    $r = new Redis();
    $r->connect('127.0.0.1', $port);
    $i = $r->info();
    return [$i['used_cpu_sys'] + $i['used_cpu_user'], $i['total_commands_processed']];
};
[$cpu0, $cmd0] = $redis_cost();
$tmp = sys_get_temp_dir() . "/rlock-bench-sem-" . getmypid();
@mkdir($tmp);
$start = microtime(true) + 0.5 + $procs * 0.02;  // every process started and connected by then
$pids = [];
for ($p = 0; $p < $procs; $p++) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        [$take, $give] = $adapter();
        time_sleep_until($start);
        $waits = [];
        $end = $start + $seconds;
        $arrival = $start;
        $unserved = [];
        // the next request arrives after an exponential gap (mean procs / rate s)
        $next = fn (float $after): float => $after - log(1.0 - mt_rand() / (mt_getrandmax() + 1)) * $procs / $rate;
        mt_srand(getmypid());
        while (microtime(true) < $end) {
            $t = microtime(true);
            if ($rate > 0) {
                $arrival = $next($arrival);
                if ($arrival >= $end) {
                    break;
                }
                if ($arrival > microtime(true) + 0.0001) {
                    usleep((int) (($arrival - microtime(true)) * 1e6));
                }
                $t = $arrival;
            }
            if ($lib === 'laravel') {
                $limiter = $take();
                $limiter->block(60, function () use (&$waits, $t, $section_us) {
                    $waits[] = microtime(true) - $t;
                    usleep($section_us);
                });
                continue;
            }
            $take();
            $waits[] = microtime(true) - $t;
            usleep($section_us);
            $give();
        }
        // requests that arrived and were not served by the end: waiting at least this long
        for ($now = microtime(true); $rate > 0 && ($arrival = $next($arrival)) < $end;) {
            $unserved[] = $now - $arrival;
        }
        file_put_contents("$tmp/$p", json_encode(['waits' => $waits, 'unserved' => $unserved, 'done' => microtime(true)]));
        exit(0);
    }
    $pids[] = $pid;
}
foreach ($pids as $pid) {
    pcntl_waitpid($pid, $status);
}
[$cpu1, $cmd1] = $redis_cost();
$waits = [];
$fewest = PHP_INT_MAX;
$last = $start;
$sections = $unserved = 0;
foreach (glob("$tmp/*") as $f) {
    $r = json_decode(file_get_contents($f), true);
    array_push($waits, ...$r['waits'], ...$r['unserved']);
    $sections += count($r['waits']);
    $unserved += count($r['unserved']);
    $fewest = min($fewest, count($r['waits']));
    $last = max($last, $r['done']);
    unlink($f);
}
rmdir($tmp);
sort($waits);
$pct = fn (float $q) => $waits ? $waits[min(count($waits) - 1, (int) floor($q * count($waits)))] * 1000 : NAN;
$n = max($sections, 1);
printf("| %-8s | %3d | %2d | %5s | %8.0f | %5d | %8.1f | %8.1f | %8.1f | %5d | %6.1f | %5.1f |\n", $lib, $procs, $permits,
    $rate > 0 ? (string) round($rate) : 'loop', $sections / ($last - $start), $unserved, $pct(0.5), $pct(0.99),
    end($waits) * 1000, $fewest, ($cpu1 - $cpu0) * 1e6 / $n, ($cmd1 - $cmd0) / $n);
