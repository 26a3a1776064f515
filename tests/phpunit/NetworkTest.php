<?php
/*
 * Faults across a real network (issue 11, part 9): the lock servers are hosts of their own,
 * each in a network namespace behind a switch (Network.php), and the clients, child
 * processes in the root namespace, reach them over veths. The switch cuts hosts off
 * (packets dropped: a connect hangs, a reply never comes) and slows and drops what goes to
 * a host. Each scenario's children run a read-modify-write of a counter in a store of their
 * own (the loopback server of OneServerTestCase, out of the faults' way) under the lock,
 * time every call, and report: every call returns within connect_timeout + read_timeout
 * (+ its wait) and a margin, no update is lost, and, with fencing tokens, the store refuses
 * no write (a write with a token not above the last one would mean two holders).
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit -c tests/phpunit/phpunit.xml tests/phpunit/NetworkTest.php
 *
 * Needs root, iproute2, nftables, iptables and a C compiler (netdelay.c, where the kernel has
 * no sch_netem). RLOCK_TEST_VERBOSE=1 prints what each scenario measured to stderr.
 */

declare(strict_types=1);

final class NetworkTest extends OneServerTestCase
{
    /** Added to every bound: a loaded 2-core machine, php start-up, the store's round trips. */
    private const MARGIN_MS = 500;

    /**
     * A client: cycles of lock, read-modify-write of the store's "counter", unlock, until
     * the store's "phase" is "stop" or it has $cycles successes. Progress in the store
     * (hashes ok:PHASE and fail:PHASE, field = child id); at the end a JSON line per phase:
     * calls, slowest call per method (ms), exceptions by message, first success (time). A
     * call's time counts in the phase it began in.
     */
    private const CLIENT = <<<'PHP'
        [, $cfg] = $argv;
        $cfg = json_decode($cfg, true);
        $store = new Redis();
        $store->connect('127.0.0.1', $cfg['store'], 2);
        $l = new RLock('counter', $cfg['opts']);
        // the fencing store: a write with a token not above the last one is refused
        $write = <<<'LUA'
            local last = tonumber(redis.call('GET', KEYS[2]) or '0')
            if tonumber(ARGV[1]) <= last then return 0 end
            redis.call('SET', KEYS[2], ARGV[1])
            redis.call('SET', KEYS[1], ARGV[2])
            return 1
            LUA;
        $stats = [];
        $timed = function (string $phase, string $method, callable $call) use (&$stats, $cfg, $store) {
            $t = hrtime(true);
            try {
                $r = $call();
            } catch (RLockException $e) {
                $r = get_class($e) . ': ' . $e->getMessage();
                $stats[$phase]['errors'][$r] = ($stats[$phase]['errors'][$r] ?? 0) + 1;
            }
            $ms = (hrtime(true) - $t) / 1e6;
            if ($ms > $cfg['bounds'][$method]) {
                $store->rPush('slow', json_encode([$phase, $method, round($ms), $r]));
            }
            $stats[$phase]['calls'] = ($stats[$phase]['calls'] ?? 0) + 1;
            $stats[$phase]['max'][$method] = max($stats[$phase]['max'][$method] ?? 0, round($ms, 1));
            return $r;
        };
        $ok = 0;
        $deadline = microtime(true) + $cfg['deadline'];
        $parent = posix_getppid();
        echo "ready\n";
        // until told to stop, out of time, or orphaned (the test died)
        while (($phase = $store->get('phase')) !== 'stop' && microtime(true) < $deadline && posix_getppid() === $parent) {
            $got = $timed($phase, 'lock', fn () => $cfg['wait'] === null ? $l->tryLock() : $l->lock($cfg['wait']));
            if ($got !== true) {
                $store->hIncrBy("fail:$phase", $cfg['id'], 1);
                if ($cfg['wait'] === null) {
                    usleep(random_int(2000, 20000));  // a client's back-off between tries
                }
                continue;
            }
            [$held, $at] = [$store->get('phase'), microtime(true)];
            $v = (int) $store->get('counter');
            usleep(random_int(0, 2000));
            if ($cfg['opts']['fencing'] ?? false) {
                $accepted = $store->eval($write, ['counter', 'fence', $l->fencingToken(), $v + 1], 2);
            } else {
                $accepted = $store->set('counter', $v + 1) ? 1 : 0;
            }
            $store->hIncrBy($accepted ? 'written' : 'refused', $cfg['id'], 1);
            $timed($phase, 'unlock', fn () => $l->unlock());
            // counted in its phase when that was on from the call to its return, else as a
            // success across phases ("ok:A>B")
            $store->hIncrBy('ok:' . ($held === $phase ? $phase : "$phase>$held"), $cfg['id'], 1);
            $stats[$held]['first'] ??= $at;
            if (++$ok === $cfg['cycles']) {
                break;
            }
        }
        echo json_encode($stats), "\n";
        PHP;

    private ?Network $net = null;
    /** @var array<string, int> ms: the contract's bound of each method for the clients' options */
    private array $bounds = [];
    /** @var RedisServer[] */
    private array $servers = [];

    protected function setUp(): void
    {
        parent::setUp();
        $this->net = new Network();
    }

    protected function tearDown(): void
    {
        parent::tearDown();
        foreach ($this->servers as $s) {
            $s->kill();
        }
        $this->servers = [];
        $this->net?->close();
        $this->net = null;
    }

    /** A redis-server on a host of its own, named $name. */
    private function server(string $name, array $args = [], array $conf = []): RedisServer
    {
        $addr = $this->net->host($name);
        return $this->servers[$name] = new RedisServer($args, 6379, $conf, $addr, Network::namespace($name));
    }

    /** Start $n clients, in phase $phase. */
    private function clients(string $phase, int $n, array $opts, ?int $wait, int $cycles = 0, float $deadline = 120): void
    {
        $this->client->set('phase', $phase);
        $this->bounds = [
            'lock' => $opts['connect_timeout'] + $opts['read_timeout'] + ($wait ?? 0),
            'unlock' => $opts['connect_timeout'] + $opts['read_timeout'],
        ];
        $bounds = array_map(fn ($ms) => $ms + self::MARGIN_MS, $this->bounds);
        for ($i = 0; $i < $n; $i++) {
            $this->children[$i] = Processes::start(self::CLIENT, [json_encode(['store' => $this->redis->port, 'id' => $i,
                'opts' => $opts, 'wait' => $wait, 'cycles' => $cycles, 'deadline' => $deadline, 'bounds' => $bounds])]);
        }
        foreach ($this->children as [, $pipes]) {
            $this->assertSame('ready', Processes::readLine($pipes));
        }
    }

    /** Await every client having counted $n in the store's hash $hash. */
    private function awaitEach(string $hash, int $n, float $seconds): void
    {
        $this->await(function () use ($hash, $n) {
            if ($slow = $this->client->lRange('slow', 0, 4)) {
                $this->fail('over the bounds (' . json_encode($this->bounds) . ' + ' . self::MARGIN_MS . " ms): "
                    . json_encode($slow) . "\n" . $this->progress());
            }
            $counts = $this->client->hGetAll($hash);
            foreach (array_keys($this->children) as $i) {
                if ((int) ($counts[$i] ?? 0) < $n) {
                    return false;
                }
            }
            return true;
        }, "every client has $n in $hash", $seconds, fn () => $this->progress());
    }

    /** The clients' counts in the store, and what they report once stopped (for a failure). */
    private function progress(): string
    {
        $progress = [];
        foreach ($this->client->keys('*:*') as $key) {
            $progress[$key] = $this->client->hGetAll($key);
        }
        $this->client->set('phase', 'stop');
        $reports = [];
        foreach ($this->children as $i => [$proc, $pipes]) {
            $reports[$i] = Processes::finish($proc, $pipes)[1];
        }
        $this->children = [];
        return 'progress: ' . json_encode($progress) . "\nclients: " . implode('', $reports);
    }

    /** @return array<int, array> each client's statistics by phase, once all have ended */
    private function finish(): array
    {
        $this->client->set('phase', 'stop');
        $all = [];
        foreach ($this->children as $i => [$proc, $pipes]) {
            [$status, $out, $err] = Processes::finish($proc, $pipes);
            $this->assertSame(0, $status, "client $i: $out $err");
            $stats = json_decode(trim($out), true);
            $this->assertIsArray($stats, "client $i: $out $err");
            $all[$i] = $stats;
        }
        $this->children = [];
        return $all;
    }

    /**
     * Every call of every client within $bounds[method] (ms, the margin added here), exceptions
     * only RLockConnectionException, no lost update and no refused write. Returns the
     * slowest call per phase and method, and the exceptions, for the messages.
     */
    private function assertClean(array $all, string $what): array
    {
        $slowest = $errors = [];
        foreach ($all as $i => $phases) {
            foreach ($phases as $phase => $s) {
                foreach ($s['max'] ?? [] as $method => $ms) {
                    $slowest[$phase][$method] = max($slowest[$phase][$method] ?? 0, $ms);
                }
                foreach ($s['errors'] ?? [] as $msg => $count) {
                    $this->assertStringStartsWith('RLockConnectionException: ', $msg, "$what: client $i");
                    $errors[$phase][preg_replace('/\d+\.\d+\.\d+\.\d+:\d+/', 'HOST', $msg)] = true;
                }
            }
        }
        $report = json_encode(['slowest ms' => $slowest, 'errors' => array_map('array_keys', $errors)], JSON_PRETTY_PRINT);
        if (getenv('RLOCK_TEST_VERBOSE')) {
            fwrite(STDERR, "\n$what: $report\n");
        }
        foreach ($slowest as $phase => $methods) {
            foreach ($methods as $method => $ms) {
                $this->assertLessThan($this->bounds[$method] + self::MARGIN_MS, $ms,
                    "$what, phase $phase: $method() took $ms ms, over its bound of {$this->bounds[$method]} ms\n$report");
            }
        }
        $written = array_sum($this->client->hGetAll('written'));
        $this->assertSame(0, array_sum($this->client->hGetAll('refused')), "$what: the store refused an older token: two holders");
        $this->assertSame($written, (int) $this->client->get('counter'), "$what: an update was lost");
        return $slowest;
    }

    /**
     * Redlock over five masters, four clients taking turns with tryLock(). Two masters cut
     * off mid-run: the lock goes on, every call within connect_timeout + read_timeout (the
     * masters are reached in parallel: one timeout, not one each). Three cut off: every try
     * fails cleanly within the same bound. Healed: the lock works again.
     */
    public function testRedlockAcrossPartitionedMasters(): void
    {
        $servers = [];
        foreach (['m0', 'm1', 'm2', 'm3', 'm4'] as $name) {
            $servers[] = $this->server($name)->dsn();
        }
        $connect = 1000;
        $read = 250;
        // ttl: the validity left after a connect_timeout (or, today, two) is still positive
        $this->clients('healthy', 4, ['servers' => $servers, 'prefix' => 'net:', 'ttl' => 5000, 'fencing' => true,
            'connect_timeout' => $connect, 'read_timeout' => $read], null);
        $this->awaitEach('ok:healthy', 2, 20);

        // the fault first, then the phase: a call of the phase began under its fault
        $this->net->partition('m0', 'm1');
        $this->client->set('phase', 'two');
        $this->awaitEach('ok:two', 2, 30);

        $this->net->partition('m2');
        $this->client->set('phase', 'three');
        $this->awaitEach('fail:three', 2, 30);

        $this->client->set('phase', 'healing');
        $this->net->heal('m0', 'm1', 'm2');
        $this->client->set('phase', 'healed');
        $this->awaitEach('ok:healed', 2, 30);

        $this->assertClean($this->finish(), 'Redlock, 2 then 3 of 5 masters cut off');
        $this->assertSame([], $this->client->hGetAll('ok:three'), 'a lock with 3 of 5 masters cut off');
    }

    /**
     * One lock server 200 ms away with 5% of what goes to it lost, 16 processes contending
     * with lock(): the timeouts hold, no update is lost, and the fencing store never sees
     * two holders.
     */
    public function testLatencyAndLossUnderContention(): void
    {
        $server = $this->server('lk');
        $this->net->degrade('lk', 200, 5);
        $connect = 1500;
        $read = 700;
        $wait = 10000;
        $t = microtime(true);
        $this->clients('degraded', 16, ['server' => $server->dsn(), 'prefix' => 'net:', 'ttl' => 4000, 'fencing' => true,
            'connect_timeout' => $connect, 'read_timeout' => $read], $wait, 2);
        $this->awaitEach('ok:degraded', 2, 120);
        $ms = (microtime(true) - $t) * 1000;

        $slowest = $this->assertClean($this->finish(), '200 ms, 5% loss, 16 processes' . ($this->net->netem() ? ' (netem)' : ' (netdelay)'));
        $this->assertSame(32, (int) $this->client->get('counter'));
        // the turns follow one another, each after a release that crossed the delay
        $this->assertGreaterThan(32 * 200, $ms);
        $this->assertGreaterThan(200, $slowest['degraded']['unlock']);
    }

    /**
     * A master with one replica and three Sentinels (quorum 2), each a host of its own;
     * clients selling one item per lock. The master is cut off from everyone: the calls in
     * flight fail within the timeouts, the Sentinels promote the replica, and every client
     * locks again, on the new master, within the timeouts of the switch.
     */
    public function testSentinelFailoverWhenTheMasterIsCutOff(): void
    {
        $master = $this->server('sm', ['--repl-diskless-sync-delay', '0']);
        $replica = $this->server('sr', ['--replicaof', $master->host, (string) $master->port, '--repl-diskless-sync-delay', '0']);
        $this->await(fn () => ($replica->info('replication')['master_link_status'] ?? '') === 'up', 'the replica is in sync');
        $sentinels = [];
        foreach (['s0', 's1', 's2'] as $name) {
            $sentinels[] = $this->server($name, ['--sentinel'], [
                "sentinel monitor rlock {$master->host} {$master->port} 2",
                'sentinel down-after-milliseconds rlock 1000',
                'sentinel failover-timeout rlock 3000',
            ]);
        }
        $this->await(function () use ($sentinels) {
            foreach ($sentinels as $s) {
                $m = $s->sentinelMaster('rlock');
                if ((int) $m['num-other-sentinels'] !== 2 || (int) $m['num-slaves'] !== 1) {
                    return false;
                }
            }
            return true;
        }, 'the Sentinels know each other and the replica', 20);

        $connect = 500;
        $read = 500;
        $wait = 1000;
        $this->clients('before', 4, ['sentinel' => array_map(fn (RedisServer $s) => $s->addr(), $sentinels), 'service' => 'rlock',
            'prefix' => 'net:', 'ttl' => 5000, 'connect_timeout' => $connect, 'read_timeout' => $read], $wait);
        $this->awaitEach('ok:before', 2, 20);

        $this->net->partition('sm');
        $this->client->set('phase', 'cut');
        $this->await(function () use ($sentinels, $replica) {
            foreach ($sentinels as $s) {
                if ($s->command('SENTINEL', 'get-master-addr-by-name', 'rlock') !== [$replica->host, (string) $replica->port]) {
                    return false;
                }
            }
            return true;
        }, 'the Sentinels name the replica', 30);
        $switched = microtime(true);
        $this->client->set('phase', 'after');
        $this->awaitEach('ok:after', 2, 20);

        $all = $this->finish();
        $this->assertSame('master', $replica->info('replication')['role']);
        $this->assertClean($all, 'Sentinel failover');
        $relock = array_map(fn ($phases) => round(($phases['after']['first'] - $switched) * 1000), $all);
        if (getenv('RLOCK_TEST_VERBOSE')) {
            fwrite(STDERR, 'locked again, ms after the Sentinels named the replica: ' . json_encode($relock) . "\n");
        }
        foreach ($relock as $i => $ms) {
            // a call that began before the switch ends within one lock() of it; the next one locks
            $this->assertLessThan(2 * ($connect + $read + $wait) + self::MARGIN_MS, $ms, "client $i locked again only $ms ms after the switch");
        }
    }
}
