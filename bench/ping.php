<?php
// Round trip of a PING with phpredis: the unit for handoff latency. And the
// wake floor: how long one process's RPUSH takes to wake another process
// blocked in BLPOP on that list, with no lock at all, the least any hand-over
// between processes costs on this machine.
// Usage: php ping.php [COUNT [WAKES]]   (WAKES: default COUNT / 10, at least 300)

declare(strict_types=1);
require __DIR__ . '/common.php';

$cfg = bench_config();
$count = (int) ($argv[1] ?? 5000);
$wakes = (int) ($argv[2] ?? max(300, intdiv($count, 10)));
$r = bench_redis($cfg['host'], $cfg['port']);
for ($i = 0; $i < 200; $i++) {
    $r->ping();
}
$rtt = [];
for ($i = 0; $i < $count; $i++) {
    $t = hrtime(true);
    $r->ping();
    $rtt[] = (hrtime(true) - $t) / 1000;
}
// The same after 1 ms asleep, as a waiter is when its wake-up comes: includes
// the cost of waking an idle CPU and process.
$idle = [];
for ($i = 0; $i < intdiv($count, 10); $i++) {
    usleep(1000);
    $t = hrtime(true);
    $r->ping();
    $idle[] = (hrtime(true) - $t) / 1000;
}
$version = $r->info('server')['redis_version'];
$r->close(); // the wake's child must not inherit it

/**
 * The wake floor: a child loops BLPOP on a fresh list; the parent, $n times,
 * waits until the child is blocked, then RPUSHes (string) hrtime(true). The
 * child takes hrtime(true) - value on each return: the push's way through
 * Redis to a process asleep in BLPOP, and that process waking up. Returns
 * the child's samples in microseconds.
 *
 * Each time, once the child says it is about to call BLPOP, the parent sleeps
 * 1 ms (by design, not as synchronisation: a waiter in a hand-over has been
 * blocked a while, its CPU may be idle, as in ping's "after 1 ms asleep"),
 * then awaits the condition itself, CLIENT LIST showing the child's
 * connection blocked in blpop, before it pushes.
 */
function bench_wake(array $cfg, int $n): array
{
    $key = 'bench:wake:' . getmypid() . ':' . bin2hex(random_bytes(4));
    [$parentEnd, $childEnd] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    $pid = pcntl_fork();
    if ($pid === -1) {
        throw new RuntimeException('fork failed');
    }
    if ($pid === 0) {
        // The child: sends its CLIENT ID, then 'r' before each BLPOP; at the
        // stop value, its samples (pack J*) and exits.
        fclose($parentEnd);
        try {
            $b = bench_redis($cfg['host'], $cfg['port']);
            $b->setOption(Redis::OPT_READ_TIMEOUT, -1);
            fwrite($childEnd, pack('J', (int) $b->rawCommand('CLIENT', 'ID')));
            $ns = [];
            while (true) {
                fwrite($childEnd, 'r');
                $got = $b->blPop([$key], 30);
                $now = hrtime(true);
                if (!$got || $got[1] === 'stop') {
                    break;
                }
                $ns[] = $now - (int) $got[1];
            }
            fwrite($childEnd, $ns ? pack('J*', ...$ns) : '');
        } catch (Throwable $e) {
            fwrite(STDERR, 'wake child: ' . $e->getMessage() . "\n");
            exit(1);
        }
        exit(0);
    }
    fclose($childEnd);

    $read = function (int $bytes) use ($parentEnd, $pid): string {
        $got = '';
        while (strlen($got) < $bytes) {
            $in = [$parentEnd];
            $none = null;
            if (!stream_select($in, $none, $none, 10) || ($chunk = fread($parentEnd, $bytes - strlen($got))) === ''
                || $chunk === false) {
                posix_kill($pid, SIGKILL);
                pcntl_waitpid($pid, $status);
                throw new RuntimeException('the wake child stopped answering');
            }
            $got .= $chunk;
        }
        return $got;
    };
    $a = bench_redis($cfg['host'], $cfg['port']);
    $id = unpack('J', $read(8))[1];
    $blocked = function () use ($a, $id): bool {
        $line = (string) $a->rawCommand('CLIENT', 'LIST', 'ID', (string) $id);
        return preg_match('/ flags=\S*b/', $line) === 1; // b: blocked
    };
    // $value null: the time now, taken just before the push.
    $push = function (?string $value) use ($a, $key, $read, $blocked, $pid): void {
        $read(1); // 'r': the child is about to call BLPOP
        usleep(1000);
        $deadline = hrtime(true) + 10_000_000_000;
        while (!$blocked()) {
            if (hrtime(true) > $deadline) {
                posix_kill($pid, SIGKILL);
                pcntl_waitpid($pid, $status);
                throw new RuntimeException('the wake child did not block in BLPOP');
            }
        }
        $a->rPush($key, $value ?? (string) hrtime(true));
    };
    for ($i = 0; $i < $n; $i++) {
        $push(null);
    }
    $push('stop');
    $raw = stream_get_contents($parentEnd);
    pcntl_waitpid($pid, $status);
    $a->del($key);
    if (!pcntl_wifexited($status) || pcntl_wexitstatus($status) !== 0 || strlen($raw) !== 8 * $n) {
        throw new RuntimeException('the wake child failed');
    }
    return array_map(fn (int $ns) => $ns / 1000, array_values(unpack('J*', $raw)));
}

// A failed wake measurement leaves the round trip's numbers: the report shows
// the wake floor as '-' and the reason is on stderr and in the row.
$wake = [];
$wakeError = null;
try {
    $wake = bench_wake($cfg, $wakes);
} catch (Throwable $e) {
    $wakeError = $e->getMessage();
    fwrite(STDERR, "ping.php: wake floor: $wakeError\n");
}

bench_emit([
    'kind' => 'ping',
    'count' => $count,
    'rtt_p50_us' => bench_percentile($rtt, 50),
    'rtt_mean_us' => array_sum($rtt) / $count,
    'idle_rtt_p50_us' => bench_percentile($idle, 50),
    'wake_count' => count($wake),
    'wake_pause_us' => 1000,
    'wake_p50_us' => bench_percentile($wake, 50),
    'wake_p99_us' => bench_percentile($wake, 99),
    'wake_error' => $wakeError,
    'redis_version' => $version,
]);
