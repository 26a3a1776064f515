<?php
/*
 * RSemaphore across processes: never more holders' permits than the semaphore has, under 32
 * processes some of which are SIGKILLed while they hold permits or wait; killed holders'
 * permits come back within their lease; no waiter waits past its deadline; waiters are
 * served first come, first served. Faults: replies lost after Redis took the permits cost
 * the worker no permit and no wait (a relay drops connections at acquire wins), and a
 * waiter killed in the queue delays the next at most by its own lease.
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
    /** A hand-over is one round trip; anything near this bound means the waiter slept. */
    private const HANDOVER_MS = 1000;

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
     * How a worker starts: $cfg from argv, $r a client for the witness, $s its semaphore
     * 'pool'; ready, then waits for "go". section($i, $n) enters the section as the i-th
     * holder of n permits, stays up to 2 ms, and leaves.
     */
    private const WORKER_START = <<<'PHP'
        [, $cfg] = $argv;
        $cfg = json_decode($cfg, true);
        $r = new Redis();
        $r->connect('127.0.0.1', $cfg['port']);
        $s = new RSemaphore('pool', $cfg['permits'], $cfg['opts']);
        $section = function (int $i, int $n) use ($r, $cfg) {
            $me = getmypid() . ":$i:$n";
            $r->eval($cfg['enter'], ['inside', 'violations', $me, $cfg['permits'], 200], 2);
            usleep(random_int(0, 2000));
            $r->zRem('inside', $me);
        };
        echo "ready\n";
        $r->blPop(['go'], 30);

        PHP;

    /**
     * A worker: until its time is up, takes 1 to 3 permits (waiting up to WAIT_MS), enters
     * the section, stays up to 2 ms, leaves, releases; reports how it went.
     */
    private const WORKER = self::WORKER_START . <<<'PHP'
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
            $section($i, $n);
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

    /**
     * A relay to the server that drops a client's connection at a reply that gives permits:
     * an acquire script's win ({1, token, permits}; cfg['win'] percent of them) or a grant
     * its BLPOP popped ("g <permits>"; cfg['grant'] percent): Redis gave them, the client
     * never hears of it. Prints its port; counts its cuts in the file cfg['cuts'].
     */
    private const RELAY = <<<'PHP'
        [, $cfg] = $argv;
        $cfg = json_decode($cfg, true);
        // a write to a peer gone is no news: nothing on stderr, a pipe nobody reads
        ini_set('display_errors', '0');
        // each chunk relayed at once (Nagle would hold a small write for the peer's ACK)
        $nodelay = stream_context_create(['socket' => ['tcp_nodelay' => true]]);
        $server = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr, STREAM_SERVER_BIND | STREAM_SERVER_LISTEN, $nodelay);
        echo explode(':', stream_socket_get_name($server, false))[1], "\n";
        $pairs = [];
        $cuts = 0;
        for (;;) {
            $read = [$server];
            foreach ($pairs as [$c, $u]) {
                $read[] = $c;
                $read[] = $u;
            }
            $w = $e = null;
            if (@stream_select($read, $w, $e, null) === false) {
                continue;
            }
            foreach ($read as $sock) {
                if ($sock === $server) {
                    if ($c = @stream_socket_accept($server, 0)) {
                        $pairs[(int) $c] = [$c, stream_socket_client('tcp://127.0.0.1:' . $cfg['port'], $errno, $errstr, 5, STREAM_CLIENT_CONNECT, $nodelay)];
                    }
                    continue;
                }
                foreach ($pairs as $id => [$c, $u]) {
                    if ($sock !== $c && $sock !== $u) {
                        continue;
                    }
                    $data = fread($sock, 65536);
                    $cut = $data === false || $data === ''
                        || ($sock === $u && random_int(1, 100) <= (str_contains($data, "*3\r\n:1\r\n\$32\r\n") ? $cfg['win']
                            : (preg_match('/\r\n\$\d+\r\ng \d/', $data) ? $cfg['grant'] : 0)));
                    if (!$cut) {
                        fwrite($sock === $c ? $u : $c, $data);
                        break;
                    }
                    if ($data !== false && $data !== '') {
                        file_put_contents($cfg['cuts'], (string) ++$cuts);
                    }
                    fclose($c);
                    fclose($u);
                    unset($pairs[$id]);
                    break;
                }
            }
        }
        PHP;

    /**
     * A worker through the relay: until its time is up, runs synchronized() over 1 or 2
     * permits (as a long-lived worker does, one RSemaphore for its life), and goes on after
     * the RLockConnectionException of a lost reply; reports how long the wait that follows a
     * lost reply lasted at most, gives back what it may hold, reports, and waits to be told
     * to exit.
     */
    private const LOST_WORKER = self::WORKER_START . <<<'PHP'
        $st = ['ok' => 0, 'cut' => 0, 'timeouts' => 0, 'after_ms' => 0];
        $since = null;
        $end = microtime(true) + $cfg['seconds'];
        for ($i = 0; microtime(true) < $end; $i++) {
            $n = random_int(1, 2);
            try {
                $s->synchronized(fn () => $section($i, $n), $n, $cfg['wait']);
                $st['ok']++;
                if ($since !== null) {
                    $st['after_ms'] = max($st['after_ms'], (int) ((microtime(true) - $since) * 1000));
                    $since = null;
                }
            } catch (RLockConnectionException) {
                $st['cut']++;
                $since ??= microtime(true);
            } catch (RLockTimeoutException) {
                $st['timeouts']++;
            }
            usleep(random_int(0, 3000));  // between jobs: some takes find permits free
        }
        // a lost reply last: release() asks Redis what the object's token holds
        $s->release();
        echo json_encode($st), "\n";
        $r->blPop(['exit'], 30);
        PHP;

    /** A waiter for 1 of 'dead''s 1 permit with the ttl given: reports when it got it, then releases. */
    private const DEAD_WAITER = <<<'PHP'
        [, $cfg] = $argv;
        $cfg = json_decode($cfg, true);
        $s = new RSemaphore('dead', 1, $cfg['opts']);
        $got = $s->acquire(1, 20000);
        echo json_encode(['got' => $got, 'at' => microtime(true)]), "\n";
        $s->release();
        PHP;

    /**
     * The next line of each of the children $which, whichever prints first, waiting $seconds
     * in all (they print at once and live on: one select over them all, not one at a time).
     * @return array<int, string> by child index
     */
    private function lines(array $which, float $seconds): array
    {
        $lines = [];
        $deadline = microtime(true) + $seconds;
        while (count($lines) < count($which)) {
            $read = [];
            foreach ($which as $i) {
                if (!isset($lines[$i])) {
                    $read[$i] = $this->children[$i][1][1];
                }
            }
            $w = $e = null;
            $left = max(0.0, $deadline - microtime(true));
            if (stream_select($read, $w, $e, (int) $left, (int) (fmod($left, 1) * 1e6)) < 1) {
                $this->fail('children ' . implode(', ', array_diff($which, array_keys($lines))) . " printed nothing within $seconds s");
            }
            foreach ($read as $i => $pipe) {
                $lines[$i] = rtrim((string) fgets($pipe), "\n");
            }
        }
        return $lines;
    }

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

    public function testALostReplyCostsNoPermitAndNoWait(): void
    {
        // before the fix: a worker whose win reply was lost held a permit for good (each
        // synchronized() took n more and gave n back), and its next synchronized() for 2 of
        // 2 waited for its own lost permit's lease (TTL)
        $ttl = 5000;
        $cuts = tempnam(sys_get_temp_dir(), 'rlock-relay-cuts-');
        $this->children[] = Processes::start(self::RELAY, [json_encode(['port' => $this->redis->port, 'win' => 25, 'grant' => 5, 'cuts' => $cuts])]);
        $relay = (int) Processes::readLine($this->children[0][1], 10);
        $permits = 2;
        $workers = 4;
        $cfg = ['port' => $this->redis->port, 'permits' => $permits, 'wait' => 2 * $ttl, 'seconds' => 3, 'enter' => self::ENTER,
            'opts' => ['server' => "redis://127.0.0.1:$relay", 'prefix' => 'sem:', 'ttl' => $ttl]];
        for ($i = 0; $i < $workers; $i++) {
            $this->children[] = Processes::start(self::LOST_WORKER, [json_encode($cfg)]);
        }
        for ($i = 1; $i <= $workers; $i++) {
            $this->assertSame('ready', Processes::readLine($this->children[$i][1], 30));
        }
        $this->client->rPush('go', ...array_fill(0, $workers, '1'));
        $sum = ['ok' => 0, 'cut' => 0, 'timeouts' => 0, 'after_ms' => 0];
        foreach ($this->lines(range(1, $workers), 30) as $i => $line) {
            $st = json_decode($line, true);
            $this->assertIsArray($st, "worker $i: $line");
            foreach ($st as $k => $v) {
                $sum[$k] = $k === 'after_ms' ? max($sum[$k], $v) : $sum[$k] + $v;
            }
        }
        $relayCuts = (int) file_get_contents($cuts);
        unlink($cuts);
        $this->assertGreaterThan(0, $relayCuts, 'the relay never dropped a reply');
        $this->assertGreaterThan(0, $sum['cut'], json_encode($sum));
        $this->assertSame('0', (string) ($this->client->get('violations') ?: '0'), 'more permits held than there are');
        $this->assertSame(0, $sum['timeouts'], json_encode($sum));
        $this->assertLessThan(self::LATE_MS, $sum['after_ms'], 'the wait that follows a lost reply: ' . json_encode($sum));
        // the workers live on, idle: every permit is free, now, not a lease later
        $s = new RSemaphore('pool', $permits, $this->options());
        $this->await(fn () => $s->available() === $permits, 'every permit is free while the workers live', 1);
        $this->client->rPush('exit', ...array_fill(0, $workers, '1'));
    }

    public function testAWaiterKilledInTheQueueDelaysTheNextAtMostItsLease(): void
    {
        // before the fix: served although dead, it held its permit for its lease, and the
        // waiter behind it, whose round counted on the holder's lease, slept through its own
        // round (the whole 20 s wait here)
        $queue = '}{sem:dead}:semaphore-queue';
        $holder = new RSemaphore('dead', 1, ['ttl' => 60000] + $this->options());
        foreach ([300, 600, 900] as $deadTtl) {
            $this->assertTrue($holder->acquire());
            $start = fn (int $ttl) => Processes::start(self::DEAD_WAITER, [json_encode(['opts' => ['ttl' => $ttl] + $this->options()])]);
            $dead = $start($deadTtl);
            $this->await(fn () => $this->client->lLen($queue) === 1, 'the doomed waiter is queued');
            $next = [$start(20000), $start(20000)];
            $this->await(fn () => $this->client->lLen($queue) === 3, 'the next waiters are queued');
            posix_kill(proc_get_status($dead[0])['pid'], SIGKILL);
            Processes::finish(...$dead);
            $t0 = microtime(true);
            $this->assertTrue($holder->release());
            $first = json_decode(Processes::readLine($next[0][1], 25), true);
            $second = json_decode(Processes::readLine($next[1][1], 25), true);
            $this->assertTrue($first['got'], 'the waiter behind the dead one was served within its 20 s wait');
            $this->assertTrue($second['got'], 'the last waiter was served within its 20 s wait');
            $this->assertLessThan($deadTtl + 1000, ($first['at'] - $t0) * 1000, "the dead waiter's $deadTtl ms lease, and a second");
            $this->assertLessThan(self::HANDOVER_MS, ($second['at'] - $first['at']) * 1000, 'the release that followed');
            foreach ($next as $child) {
                $this->assertSame(0, Processes::finish(...$child)[0]);
            }
        }
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
