<?php
/*
 * RSemaphore across processes: never more holders' permits than the semaphore has, under 32
 * processes some of which are SIGKILLed while they hold permits or wait; killed holders'
 * permits come back within their lease; no waiter waits past its deadline; waiters are
 * served first come, first served.
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit -c tests/phpunit/phpunit.xml --filter SemaphoreTest
 */

declare(strict_types=1);

final class SemaphoreTest extends OneServerTestCase
{
    private const PERMITS = 5;
    private const PROCESSES = 32;
    private const TTL_MS = 1000;
    private const WAIT_MS = 300;
    /** How late past its deadline a waiter may return on a loaded 2-core machine. */
    private const LATE_MS = 1500;

    /**
     * Enter the section: KEYS inside, violations; ARGV member (pid:i:n), limit, ms. Who is
     * inside is a sorted set of members scored with when they stop counting (ms past entry:
     * a SIGKILLed holder never leaves, and stops counting long before its lease ends, when
     * its permits may be taken again); the permits of those inside are added up, and a sum
     * above the limit counted as a violation.
     */
    private const ENTER = <<<'LUA'
        local t = redis.call('time')
        local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        redis.call('zremrangebyscore', KEYS[1], '-inf', now)
        redis.call('zadd', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
        local sum = 0
        for _, m in ipairs(redis.call('zrange', KEYS[1], 0, -1)) do sum = sum + tonumber(string.match(m, ':(%d+)$')) end
        if sum > tonumber(ARGV[2]) then redis.call('incr', KEYS[2]) end
        return sum
        LUA;

    /**
     * A worker: until its time is up, takes 1 to 3 permits (waiting up to WAIT_MS), enters
     * the section, stays up to 2 ms, leaves, releases; reports how it went.
     */
    private const WORKER = <<<'PHP'
        [, $cfg] = $argv;
        $cfg = json_decode($cfg, true);
        $r = new Redis();
        $r->connect('127.0.0.1', $cfg['port']);
        $s = new RSemaphore('pool', $cfg['permits'], $cfg['opts']);
        echo "ready\n";
        $r->blPop(['go'], 30);
        $st = ['ok' => 0, 'timeouts' => 0, 'late' => 0, 'lost' => 0];
        $end = microtime(true) + $cfg['seconds'];
        for ($i = 0; microtime(true) < $end; $i++) {
            $n = random_int(1, 3);
            $t = microtime(true);
            $got = $s->acquire($n, $cfg['wait']);
            if ((microtime(true) - $t) * 1000 > $cfg['wait'] + $cfg['late']) {
                $st['late']++;
            }
            if (!$got) {
                $st['timeouts']++;
                continue;
            }
            $me = getmypid() . ":$i:$n";
            $r->eval($cfg['enter'], ['inside', 'violations', $me, $cfg['permits'], 200], 2);
            usleep(random_int(0, 2000));
            $r->zRem('inside', $me);
            $s->release() ? $st['ok']++ : $st['lost']++;
        }
        echo json_encode($st), "\n";
        PHP;

    /** A waiter: takes argv n permits, reports, releases when its "go" list gets an element. */
    private const WAITER = <<<'PHP'
        [, $cfg] = $argv;
        $cfg = json_decode($cfg, true);
        $r = new Redis();
        $r->connect('127.0.0.1', $cfg['port']);
        $s = new RSemaphore('fifo', $cfg['permits'], $cfg['opts']);
        echo json_encode(['got' => $s->acquire($cfg['n'], 20000)]), "\n";
        $r->blPop(['go-' . $cfg['name']], 20);
        echo json_encode(['released' => $s->release()]), "\n";
        PHP;

    private function options(): array
    {
        return ['server' => $this->redis->dsn(), 'prefix' => 'sem:', 'ttl' => self::TTL_MS];
    }

    public function testNeverMorePermitsThanThereAreUnderKills(): void
    {
        $cfg = ['port' => $this->redis->port, 'permits' => self::PERMITS, 'opts' => $this->options(),
            'wait' => self::WAIT_MS, 'late' => self::LATE_MS, 'seconds' => 4, 'enter' => self::ENTER];
        for ($i = 0; $i < self::PROCESSES; $i++) {
            $this->children[] = Processes::start(self::WORKER, [json_encode($cfg)]);
        }
        foreach ($this->children as [, $pipes]) {
            $this->assertSame('ready', Processes::readLine($pipes, 30));
        }
        $this->client->rPush('go', ...array_fill(0, self::PROCESSES, '1'));
        // SIGKILL a worker every 100 to 300 ms, whatever it is doing (holding, waiting)
        $killed = [];
        $end = microtime(true) + 3;
        while (microtime(true) < $end) {
            usleep(random_int(100000, 300000));
            $i = random_int(0, self::PROCESSES - 1);
            if (!isset($killed[$i])) {
                posix_kill(proc_get_status($this->children[$i][0])['pid'], SIGKILL);
                $killed[$i] = true;
            }
        }
        $sum = ['ok' => 0, 'timeouts' => 0, 'late' => 0, 'lost' => 0];
        foreach ($this->children as $i => [, $pipes]) {
            if (isset($killed[$i])) {
                continue;
            }
            $st = json_decode(Processes::readLine($pipes, 30), true);
            $this->assertIsArray($st, "worker $i: " . stream_get_contents($pipes[2]));
            foreach ($st as $k => $v) {
                $sum[$k] += $v;
            }
        }
        $this->assertGreaterThan(0, count($killed));
        $this->assertSame('0', (string) ($this->client->get('violations') ?: '0'), 'more permits held than there are');
        $this->assertSame(0, $sum['late'], 'a waiter returned past its deadline: ' . json_encode($sum));
        $this->assertSame(0, $sum['lost'], json_encode($sum));
        $this->assertGreaterThan(self::PROCESSES, $sum['ok'], json_encode($sum));
        // the killed holders' permits come back when their lease ends
        $s = new RSemaphore('pool', self::PERMITS, $this->options());
        $this->await(fn () => $s->available() === self::PERMITS, 'every permit is free again', self::TTL_MS / 1000 + 2);
    }

    public function testFirstComeFirstServed(): void
    {
        $opts = $this->options() + ['ttl' => 20000];
        $holder = new RSemaphore('fifo', 3, $opts);
        $this->assertTrue($holder->acquire(3));
        $queue = '}{sem:fifo}:semaphore-queue';
        $names = [];
        // A wants 2, B 2, C 1, D 1: each queued before the next starts
        foreach (['A' => 2, 'B' => 2, 'C' => 1, 'D' => 1] as $name => $n) {
            $cfg = ['port' => $this->redis->port, 'permits' => 3, 'opts' => $opts, 'n' => $n, 'name' => $name];
            $this->children[] = Processes::start(self::WAITER, [json_encode($cfg)]);
            $names[] = $name;
            $this->await(fn () => $this->client->lLen($queue) === count($names), "$name is queued");
        }
        $got = fn (int $i) => json_decode(Processes::readLine($this->children[$i][1], 20), true)['got'] ?? null;
        $released = fn (int $i) => json_decode(Processes::readLine($this->children[$i][1], 20), true)['released'] ?? null;
        // 3 free: A (2) is served; B (2) does not fit in the 1 left, and C (1) behind it waits
        $this->assertTrue($holder->release());
        $this->assertTrue($got(0));
        $this->assertSame(3, $this->client->lLen($queue));
        $this->assertSame(1, $holder->available());
        // A gives back its 2: B (2) and C (1) are served, D waits
        $this->client->rPush('go-A', '1');
        $this->assertTrue($released(0));
        $this->assertTrue($got(1));
        $this->assertTrue($got(2));
        $this->assertSame(1, $this->client->lLen($queue));
        $this->client->rPush('go-C', '1');
        $this->assertTrue($released(2));
        $this->assertTrue($got(3));
        foreach (['B' => 1, 'D' => 3] as $name => $i) {
            $this->client->rPush("go-$name", '1');
            $this->assertTrue($released($i));
        }
        $this->assertSame(3, $holder->available());
    }
}
