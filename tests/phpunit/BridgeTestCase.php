<?php
/* The framework bridge's scenarios (bridge/): one redis-server, and child processes that
 * load the bridge (bridge.php) and run a script given its options as JSON. */

declare(strict_types=1);

abstract class BridgeTestCase extends OneServerTestCase
{
    /** A hand-over is one round trip; anything near this bound means the waiter polled or slept. */
    protected const HANDOVER_MS = 1000;

    protected function options(array $more = []): array
    {
        return $more + ['server' => $this->redis->dsn(), 'prefix' => 'bridge:'];
    }

    /**
     * Start `php -r` with bridge.php loaded and $cfg in $cfg (decoded JSON, with the options
     * under 'opts'); returns its index in $this->children.
     */
    protected function startChild(string $code, array $cfg = []): int
    {
        $cfg += ['opts' => $this->options()];
        $this->children[] = Processes::start(
            'require $argv[1]; $cfg = json_decode($argv[2], true); ' . $code,
            [__DIR__ . '/bridge.php', json_encode($cfg)],
        );
        return array_key_last($this->children);
    }

    /** Wait for child $i to exit 0. */
    protected function finishChild(int $i): void
    {
        [$code, $out, $err] = Processes::finish(...$this->children[$i]);
        unset($this->children[$i]);
        $this->assertSame(0, $code, "child $i: $out $err");
    }

    protected function killChild(int $i): void
    {
        posix_kill(proc_get_status($this->children[$i][0])['pid'], SIGKILL);
        Processes::finish(...$this->children[$i]);
        unset($this->children[$i]);
    }

    /** The scripts run so far (INFO commandstats: EVALSHA and EVAL calls). */
    protected function scripts(): int
    {
        $calls = 0;
        foreach ($this->client->info('commandstats') as $name => $stats) {
            if (preg_match('/^cmdstat_eval(sha)?$/', $name) && preg_match('/calls=(\d+)/', $stats, $c)) {
                $calls += (int) $c[1];
            }
        }
        return $calls;
    }

    /** Await $n clients blocked in Redis: waiters waiting natively, not polling. */
    protected function awaitBlocked(int $n): void
    {
        $this->await(fn() => (int) $this->client->info('clients')['blocked_clients'] === $n, "$n clients are blocked");
    }

    /**
     * $procs children hammering one rate limit for $seconds each: each runs $setup once, then
     * the PHP expression $decide (true: admitted) in a loop (a reply may take seconds when the
     * machine is loaded: read_timeout 5 s); $skewed of them under faketime,
     * their clocks $skew seconds ahead. Returns the permits admitted in all, the span of the
     * server's clock they were decided in (from the first child's start to the last one's end)
     * and the span in which every child was hammering (from the last start to the first end);
     * this machine's clock is the server's, a skewed child's times are put back.
     * @return array{0: int, 1: float, 2: float}
     */
    protected function hammer(string $setup, string $decide, int $procs, float $seconds, int $skewed = 0, int $skew = 2): array
    {
        $code = 'require $argv[1]; $cfg = json_decode($argv[2], true); ' . $setup
            . '; $n = 0; $t0 = microtime(true); $end = $t0 + $cfg["seconds"];'
            . ' while (microtime(true) < $end) { if (' . $decide . ') { $n++; } }'
            . ' echo json_encode(["n" => $n, "t0" => $t0 - $cfg["skew"], "t1" => microtime(true) - $cfg["skew"]]), "\n";';
        $first = count($this->children);
        for ($i = 0; $i < $procs; $i++) {
            $s = $i < $skewed ? $skew : 0;
            $cmd = array_merge(Processes::php(), ['-r', $code, '--', __DIR__ . '/bridge.php',
                json_encode(['opts' => $this->options(['read_timeout' => 5000]), 'seconds' => $seconds, 'skew' => $s])]);
            $this->children[] = Processes::startCommand($s ? array_merge(['faketime', '-f', "+{$s}s"], $cmd) : $cmd);
        }
        $n = 0;
        $t0 = $lastStart = INF;
        $t1 = $firstEnd = -INF;
        foreach (array_slice(array_keys($this->children), $first) as $i) {
            $r = $this->report($i, $seconds + static::REPORT_SECONDS);
            $n += $r['n'];
            [$t0, $lastStart] = [min($t0, $r['t0']), $lastStart === INF ? $r['t0'] : max($lastStart, $r['t0'])];
            [$t1, $firstEnd] = [max($t1, $r['t1']), $firstEnd === -INF ? $r['t1'] : min($firstEnd, $r['t1'])];
            $this->finishChild($i);
        }
        return [$n, $t1 - $t0, max(0.0, $firstEnd - $lastStart)];
    }

    /**
     * 8 children hammering one rate limit for 3 s each ($setup, $decide, $skewed: see hammer())
     * get what a GCRA limit of $limit per $periodMs, $burst at once, admits to callers that ask
     * all the time: at most $burst, then one every $periodMs / $limit, over the span the
     * decisions were made in (exact: they are made on the server's clock, within the span); and
     * more than half of that, as RateLimiterTest asks (fewer: the limit was not hammered, or
     * refused what it had; a loaded machine can pause all 8 for a second, whose permits past
     * the burst's are lost to a limit that nobody asks).
     */
    protected function assertProcessesGetTheLimit(string $setup, string $decide, int $limit, int $periodMs, int $burst, int $skewed = 0): void
    {
        [$admitted, $span, $overlap] = $this->hammer($setup, $decide, 8, 3.0, $skewed);
        $most = $burst + intdiv((int) floor($span * 1000000) * $limit, $periodMs * 1000);
        $this->assertLessThanOrEqual($most, $admitted, sprintf('over the limit in %.3f s', $span));
        $this->assertGreaterThan(intdiv($most, 2), $admitted, sprintf('under the limit in %.3f s (all asked in %.3f s)', $span, $overlap));
    }
}
