<?php
/*
 * RRateLimiter across processes: N processes hammer one limit (tryAcquire(), or acquire()
 * waiting, or all() over a per-process and a global limit) for a span of the server's clock;
 * what they admit in all is exactly the burst plus one permit per period/limit of that span,
 * never one more: the span and every decision are the server's TIME, not the processes'
 * sleeps or clocks.
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit -c tests/phpunit/phpunit.xml --filter RateLimiterTest
 */

declare(strict_types=1);

final class RateLimiterTest extends OneServerTestCase
{
    private const PROCESSES = 16;
    /** 100 per second: a permit every 10 ms. */
    private const LIMIT = 100;
    private const PERIOD_MS = 1000;
    private const BURST = 20;
    /** The span of the server's clock the processes hammer for, in us. */
    private const SPAN_US = 3000000;
    /**
     * A worker: argv cfg; ready, then blocks until "go" (an element: the span's end, the
     * server's TIME in us); then, until the server's TIME passes that end, asks for a permit
     * as cfg['how'] says, and reports how many it was given and the TIME it stopped at (read
     * after its last decision, and after the permits that decision reserved were due).
     */
    private const WORKER = <<<'PHP'
        [, $cfg] = $argv;
        $cfg = json_decode($cfg, true);
        $r = new Redis();
        $r->connect('127.0.0.1', $cfg['port']);
        $l = new RRateLimiter('flood', $cfg['limit'], $cfg['period'], $cfg['opts']);
        $mine = new RRateLimiter('{flood}' . getmypid(), $cfg['limit'], $cfg['period'], $cfg['opts']);
        $all = new RRateLimiter('{flood}all', $cfg['limit'], $cfg['period'], $cfg['opts']);
        $now = function () use ($r): int {
            [$s, $us] = $r->time();
            return (int) $s * 1000000 + (int) $us;
        };
        echo "ready\n";
        $end = (int) $r->blPop(['go'], 30)[1];
        $got = 0;
        $asked = 0;
        while (($last = $now()) < $end) {
            $asked++;
            $got += match ($cfg['how']) {
                'try' => $l->tryAcquire(),
                'acquire' => $l->acquire(1, 50),
                'all' => RRateLimiter::all([$mine, $all]),
            };
        }
        echo json_encode(['got' => $got, 'asked' => $asked, 'last' => $last]), "\n";
        PHP;

    private function serverUs(): int
    {
        [$s, $us] = $this->client->time();
        return (int) $s * 1000000 + (int) $us;
    }

    /** PROCESSES workers asking as $how; what they were given in all, and the span it took. */
    private function hammer(string $how, array $opts = []): array
    {
        $cfg = json_encode(['port' => $this->redis->port, 'limit' => self::LIMIT, 'period' => self::PERIOD_MS,
            'how' => $how, 'opts' => $opts + ['server' => $this->redis->dsn(), 'burst' => self::BURST]]);
        for ($i = 0; $i < self::PROCESSES; $i++) {
            $this->children[$i] = Processes::start(self::WORKER, [$cfg]);
        }
        for ($i = 0; $i < self::PROCESSES; $i++) {
            $this->assertSame('ready', Processes::readLine($this->children[$i][1], 30), "worker $i is not ready");
        }
        $start = $this->serverUs();
        $end = $start + self::SPAN_US;
        $this->client->rPush('go', ...array_fill(0, self::PROCESSES, (string) $end));
        $got = $asked = 0;
        $last = $end;
        for ($i = 0; $i < self::PROCESSES; $i++) {
            $r = $this->report($i, 30);
            $got += $r['got'];
            $asked += $r['asked'];
            $last = max($last, $r['last']);
        }
        // every decision came within [start, last], and every permit was due by last
        return ['got' => $got, 'asked' => $asked, 'span' => $last - $start];
    }

    /**
     * Admitted at most the burst plus span / T: never one more, whoever asked when. (As many
     * as that when the processes keep asking throughout; on a loaded machine a process may be
     * descheduled for a while, so fewer only fail the test when under half of it: the limit
     * was not hammered at all.)
     */
    private function assertExact(array $run, string $what): void
    {
        $most = self::BURST + intdiv($run['span'] * self::LIMIT, self::PERIOD_MS * 1000);
        $this->assertLessThanOrEqual($most, $run['got'], "$what: more than the burst + span / T over {$run['span']} us");
        $this->assertGreaterThan(intdiv($most, 2), $run['got'], "$what: the limit was not hammered (asked {$run['asked']})");
        $this->assertGreaterThan($run['got'], $run['asked'], "$what: nothing was refused");
    }

    public function testTryAcquireAdmitsExactlyTheRate(): void
    {
        $this->assertExact($this->hammer('try'), 'tryAcquire()');
        $this->assertSame([], $this->leftAfterThePeriod(['}{rlock:flood}:rate']));
    }

    public function testFairAcquireAdmitsExactlyTheRate(): void
    {
        $this->assertExact($this->hammer('acquire', ['fair' => true]), 'acquire() fair');
    }

    public function testUnfairAcquireAdmitsExactlyTheRate(): void
    {
        $this->assertExact($this->hammer('acquire', ['fair' => false]), 'acquire() not fair');
    }

    public function testAllAdmitsExactlyTheGlobalRate(): void
    {
        // each process' own limit is the global one's: the global one binds
        $this->assertExact($this->hammer('all'), 'all()');
    }

    /** The keys among $keys still there once a period has passed on the server. */
    private function leftAfterThePeriod(array $keys): array
    {
        $pttl = max(array_map(fn (string $k): int => (int) $this->client->pTtl($k), $keys));
        $this->assertLessThanOrEqual(self::PERIOD_MS * self::BURST / self::LIMIT + 50, $pttl);
        usleep((max($pttl, 0) + 1) * 1000);
        return array_values(array_filter($keys, fn (string $k): bool => (bool) $this->client->exists($k)));
    }
}
