<?php
/*
 * Redis Cluster (option "cluster", CONTRACT section 5) on a 3-master, 3-replica cluster made
 * with `redis-cli --cluster create` on loopback: locks in every slot range from a single
 * seed, companion keys in the lock key's slot, a slot migrated under a held lock (ASK, then
 * MOVED for a stale slot map), no lost update across a CLUSTER FAILOVER with
 * sync_replicas => 1, and a killed master whose promoted replica takes the lock over.
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit -c tests/phpunit/phpunit.xml tests/phpunit/ClusterTest.php
 *
 * The tests change the cluster (a slot moves, roles swap, a master dies) and run in their
 * order; each reads the topology as it is when it starts.
 */

declare(strict_types=1);

use PHPUnit\Framework\TestCase;

final class ClusterTest extends TestCase
{
    private const NODE_TIMEOUT = 2000;

    /** @var array<int, RedisServer> by port */
    private static array $nodes = [];
    /** @var array<int, string> node id by port */
    private static array $ids = [];
    private string $prefix;
    /** @var resource[] background processes of the test */
    private array $background = [];
    /** @var array{int, int, int}|null the slot a test is moving: slot, from, to */
    private ?array $moving = null;

    public static function setUpBeforeClass(): void
    {
        foreach (['redis-server', 'redis-cli'] as $bin) {
            exec('command -v ' . $bin, $out, $rc);
            if ($rc !== 0) {
                self::fail("$bin is not installed");
            }
        }
        for ($i = 0; $i < 6; $i++) {
            $port = RedisServer::freePort();
            // no 5 s wait before a replica's first (diskless) sync, the default of Redis 7, and
            // a replication offset that moves every second even without writes: CLUSTER SLOTS
            // lists a replica only once its offset is not 0. The bus port is chosen too: the
            // default, port + 10000, may be taken, or past 65535 for a port above 55535, when
            // redis-server refuses to start.
            self::$nodes[$port] = new RedisServer(['--cluster-enabled', 'yes', '--cluster-config-file', "nodes-$port.conf",
                '--cluster-port', (string) RedisServer::freePort(),
                '--cluster-node-timeout', (string) self::NODE_TIMEOUT, '--repl-diskless-sync-delay', '0',
                '--repl-ping-replica-period', '1'], $port);
        }
        $cmd = ['redis-cli', '--cluster', 'create'];
        foreach (self::$nodes as $port => $n) {
            $cmd[] = '127.0.0.1:' . $port;
            self::$ids[$port] = $n->command('CLUSTER', 'MYID');
        }
        array_push($cmd, '--cluster-replicas', '1', '--cluster-yes');
        exec(implode(' ', array_map('escapeshellarg', $cmd)) . ' 2>&1', $out, $rc);
        if ($rc !== 0) {
            self::fail("redis-cli --cluster create failed:\n" . implode("\n", $out));
        }
        self::awaitHealthy(20);
    }

    public static function tearDownAfterClass(): void
    {
        foreach (self::$nodes as $n) {
            $n->stop();
        }
        self::$nodes = self::$ids = [];
    }

    protected function setUp(): void
    {
        $this->prefix = 'cluster-test:' . rlock_test_name($this) . ':' . bin2hex(random_bytes(4)) . ':';
    }

    protected function tearDown(): void
    {
        foreach ($this->background as $proc) {
            proc_close($proc);
        }
        $this->background = [];
        if ($this->moving) {
            // a test that failed in the middle of a migration: finish it for the next tests
            [$slot, $a, $b] = $this->moving;
            $keys = self::$nodes[$a]->command('CLUSTER', 'GETKEYSINSLOT', (string) $slot, '1000');
            if ($keys) {
                self::$nodes[$a]->command('MIGRATE', '127.0.0.1', (string) $b, '', '0', '5000', 'REPLACE', 'KEYS', ...$keys);
            }
            foreach (array_unique(array_merge([$b, $a], array_keys(self::masters()))) as $m) {
                self::$nodes[$m]->command('CLUSTER', 'SETSLOT', (string) $slot, 'NODE', self::$ids[$b]);
            }
            $this->moving = null;
            self::awaitHealthy(10);
        }
    }

    /** Start moving $slot from master $a to master $b (IMPORTING, MIGRATING). */
    private function startMigration(int $slot, int $a, int $b): void
    {
        $this->moving = [$slot, $a, $b];
        $this->assertSame('OK', self::$nodes[$b]->command('CLUSTER', 'SETSLOT', (string) $slot, 'IMPORTING', self::$ids[$a]));
        $this->assertSame('OK', self::$nodes[$a]->command('CLUSTER', 'SETSLOT', (string) $slot, 'MIGRATING', self::$ids[$b]));
    }

    /**
     * Wait until every live node says cluster_state:ok, all agree on the masters of the
     * slots, every replica's link to its master is up, and $paired masters have a replica.
     */
    private static function awaitHealthy(float $seconds, int $paired = 3): void
    {
        $deadline = microtime(true) + $seconds;
        $why = '';
        while (microtime(true) < $deadline) {
            $why = self::unhealthy($paired);
            if ($why === null) {
                return;
            }
            usleep(50000);
        }
        self::fail("the cluster is not healthy within $seconds s: $why");
    }

    private static function unhealthy(int $paired): ?string
    {
        $maps = [];
        foreach (self::live() as $port => $n) {
            if (!str_contains((string) $n->command('CLUSTER', 'INFO'), 'cluster_state:ok')) {
                return "$port: cluster_state not ok";
            }
            $maps[$port] = json_encode(array_map(fn ($r) => [$r[0], $r[1], $r[2][1]], self::slotsOf($n)));
        }
        if (count(array_unique($maps)) !== 1) {
            return 'the nodes disagree on the slot map';
        }
        $withReplica = array_filter(self::masters(), fn ($m) => count($m['replicas']) > 0);
        if (count($withReplica) < $paired) {
            return count($withReplica) . " masters of 3 have a replica, not $paired";
        }
        foreach (self::live() as $port => $n) {
            $info = $n->info('replication');
            if ($info['role'] === 'slave' && ($info['master_link_status'] ?? '') !== 'up') {
                return "$port: replica link not up";
            }
            if ($info['role'] === 'slave' && !isset(self::live()[(int) $info['master_port']])) {
                return "$port: replica of a dead master";
            }
        }
        return null;
    }

    /** @return array<int, RedisServer> the nodes that run */
    private static function live(): array
    {
        return array_filter(self::$nodes, fn (RedisServer $n) => $n->pid() > 0);
    }

    private static function anyNode(): RedisServer
    {
        $live = self::live();
        if (!$live) {
            throw new RuntimeException('no node runs');
        }
        return reset($live);
    }

    private static function slotsOf(RedisServer $n): array
    {
        $slots = $n->command('CLUSTER', 'SLOTS');
        usort($slots, fn ($a, $b) => $a[0] <=> $b[0]);
        return $slots;
    }

    /** The port of the master serving $slot, as the first live node sees it. */
    private static function masterOf(int $slot): int
    {
        foreach (self::slotsOf(self::anyNode()) as $r) {
            if ($slot >= $r[0] && $slot <= $r[1]) {
                return $r[2][1];
            }
        }
        throw new RuntimeException("no master serves slot $slot");
    }

    /** The ports of the masters, each with its slot ranges and replicas. */
    private static function masters(): array
    {
        $out = [];
        foreach (self::slotsOf(self::anyNode()) as $r) {
            $port = $r[2][1];
            $out[$port]['ranges'][] = [$r[0], $r[1]];
            $out[$port]['replicas'] = array_map(fn ($rep) => $rep[1], array_slice($r, 3));
        }
        return $out;
    }

    private static function slot(string $key): int
    {
        return self::anyNode()->command('CLUSTER', 'KEYSLOT', $key);
    }

    private function options(array $more = []): array
    {
        return $more + [
            'cluster' => ['127.0.0.1:' . array_key_first(self::$nodes)],
            'prefix' => $this->prefix,
            'ttl' => 10000,
            'connect_timeout' => 500,
            'read_timeout' => 1000,
        ];
    }

    /** A key (without prefix) whose full key lives on master $port, or in $slot. */
    private function keyOn(int $port, string $stem = 'k'): string
    {
        for ($i = 0; $i < 100000; $i++) {
            if (self::masterOf(self::slot($this->prefix . $stem . $i)) === $port) {
                return $stem . $i;
            }
        }
        throw new RuntimeException("no key found for $port");
    }

    /** GET on a node as it is, no redirect followed; with $asking after an ASKING. */
    private static function get(int $port, string $key, bool $asking = false): mixed
    {
        if ($asking) {
            self::$nodes[$port]->command('ASKING');
        }
        return self::$nodes[$port]->command('GET', $key);
    }

    private static function ms(float $since): float
    {
        return (microtime(true) - $since) * 1000;
    }

    public function testLocksOnKeysInEverySlotRangeFromOneSeed(): void
    {
        $masters = self::masters();
        $this->assertCount(3, $masters);
        $replica = reset($masters)['replicas'][0];
        // the one seed a master, then a replica: every command goes where the slot map says
        foreach ([array_key_first($masters), $replica] as $seed) {
            $o = $this->options(['cluster' => ["127.0.0.1:$seed"], 'reentrant' => false]);
            $keys = [];
            foreach (array_keys($masters) as $port) {
                $keys[$this->keyOn($port, "s$seed-")] = $port;
            }
            for ($i = 0; $i < 24; $i++) {
                $keys["seed$seed-many$i"] = self::masterOf(self::slot($this->prefix . "seed$seed-many$i"));
            }
            $this->assertCount(3, array_unique($keys), 'the keys cover every master');
            foreach ($keys as $key => $port) {
                $l = new RLock($key, $o);
                $this->assertTrue($l->tryLock(), "$key on $port");
                $this->assertSame($l->token(), self::get($port, $l->key()), "$key is not on $port");
                foreach (array_keys($masters) as $other) {
                    if ($other !== $port) {
                        $this->assertStringStartsWith('MOVED ', self::get($other, $l->key())['error'] ?? '');
                    }
                }
                $this->assertTrue($l->isLocked());
                $this->assertTrue($l->isAcquired());
                $this->assertGreaterThan(9000, $l->ttl());
                $other = new RLock($key, $o);
                $this->assertFalse($other->tryLock(), "$key taken twice");
                $this->assertTrue($l->extend(20000));
                $this->assertGreaterThan(19000, self::$nodes[$port]->command('PTTL', $l->key()));
                $this->assertTrue($l->unlock());
                $this->assertSame(0, self::$nodes[$port]->command('EXISTS', $l->key()));
                $this->assertTrue($other->tryLock());
                $this->assertTrue(RLock::release($key, $other->token(), $o));
                $this->assertSame(0, self::$nodes[$port]->command('EXISTS', $l->key()));
                // forceUnlock(): on the key's master, whoever holds it
                $this->assertTrue($other->tryLock());
                $this->assertTrue((new RLock($key, $o))->forceUnlock(), "$key forced");
                $this->assertSame(0, self::$nodes[$port]->command('EXISTS', $l->key()));
                $this->assertFalse($other->unlock());
            }
        }
    }

    public function testCompanionKeysShareTheLockKeysSlot(): void
    {
        $o = $this->options(['fencing' => true]);
        $holder = new RLock('c', $o);
        $this->assertTrue($holder->lock());
        $slot = self::slot($holder->key());
        $port = self::masterOf($slot);

        $code = '$l = new RLock("c", json_decode($argv[1], true)); $ok = $l->lock(8000);'
            . ' echo json_encode(["ok" => $ok, "at" => microtime(true), "fence" => $l->fencingToken()]), "\n"; $l->unlock();';
        [$proc, $pipes] = Processes::start($code, [json_encode($o)]);
        // the child waits: lock, waiters and fencing counter all live in the lock key's slot
        $deadline = microtime(true) + 5;
        do {
            usleep(5000);
            $keys = self::$nodes[$port]->command('KEYS', '*' . $this->prefix . '*');
        } while (count($keys) < 3 && microtime(true) < $deadline);
        $this->assertGreaterThanOrEqual(3, count($keys), 'lock, waiters and fence: ' . json_encode($keys));
        foreach ($keys as $k) {
            $this->assertSame($slot, self::slot($k), "$k is not in the slot of " . $holder->key());
        }
        $released = microtime(true);
        $fence = $holder->fencingToken();
        $this->assertTrue($holder->unlock());
        [$status, $out, $err] = Processes::finish($proc, $pipes);
        $this->assertSame(0, $status, $err);
        $r = json_decode(trim($out), true);
        $this->assertTrue($r['ok'], $out . $err);
        $this->assertLessThan(1.0, $r['at'] - $released, 'the waiter was not woken by the release');
        $this->assertGreaterThan($fence, $r['fence']);

        // a key with a hash tag of its own keeps it for its companions
        $tagged = new RLock('{order:7}:pay', $o + ['reentrant' => false]);
        $this->assertTrue($tagged->tryLock());
        $slot = self::slot('order:7');
        $this->assertSame($slot, self::slot($tagged->key()));
        $keys = self::$nodes[self::masterOf($slot)]->command('KEYS', '*{order:7}*');
        $this->assertContains($tagged->key(), $keys);
        $this->assertGreaterThanOrEqual(2, count($keys), 'the fencing counter: ' . json_encode($keys));
        foreach ($keys as $k) {
            $this->assertSame($slot, self::slot($k), $k);
        }
        $this->assertTrue($tagged->unlock());
    }

    public function testReadWriteLockOnEveryMaster(): void
    {
        $o = $this->options(['reentrant' => false, 'fencing' => true]);
        $keys = array_map(fn (int $port) => $this->keyOn($port, 'rw'), array_keys(self::masters()));
        $keys[] = '{item:7}:stock';
        foreach ($keys as $key) {
            [$a, $b] = [new RReadWriteLock($key, $o), new RReadWriteLock($key, $o)];
            $slot = self::slot(str_starts_with($key, '{') ? 'item:7' : $this->prefix . $key);
            $this->assertSame($slot, self::slot($a->readLock()->key()), $key);
            $this->assertSame($slot, self::slot($a->writeLock()->key()), $key);
            // every script's keys in one slot: no CROSSSLOT
            $this->assertTrue($a->readLock()->tryLock(), $key);
            $this->assertTrue($b->readLock()->tryLock(), $key);
            $this->assertFalse($b->writeLock()->lock(50), $key);
            $this->assertTrue($a->readLock()->unlock(), $key);
            $this->assertTrue($b->readLock()->unlock(), $key);
            $this->assertTrue($b->writeLock()->tryLock(), $key);
            $this->assertGreaterThan(0, $b->writeLock()->fencingToken());
            $this->assertTrue($b->writeLock()->isAcquired());
            $this->assertFalse($a->readLock()->tryLock(), $key);
            $this->assertTrue($b->writeLock()->unlock(), $key);
        }

        // a writer waiting in another process: its mark and the readers
        // all live in the lock key's slot, and the reader's release wakes it
        $rw = new RReadWriteLock('rwc', $o);
        $this->assertTrue($rw->readLock()->lock());
        $slot = self::slot($this->prefix . 'rwc');
        $port = self::masterOf($slot);
        $code = '$w = (new RReadWriteLock("rwc", json_decode($argv[1], true)))->writeLock(); $ok = $w->lock(8000);'
            . ' echo json_encode(["ok" => $ok, "at" => microtime(true)]), "\n"; $w->unlock();';
        [$proc, $pipes] = Processes::start($code, [json_encode($o)]);
        $deadline = microtime(true) + 5;
        do {
            usleep(5000);
            $found = self::$nodes[$port]->command('KEYS', '*' . $this->prefix . 'rwc*');
        } while (count($found) < 2 && microtime(true) < $deadline);
        $this->assertCount(2, $found, 'the readers and the writer\'s mark: ' . json_encode($found));
        foreach ($found as $k) {
            $this->assertSame($slot, self::slot($k), $k);
        }
        $released = microtime(true);
        $this->assertTrue($rw->readLock()->unlock());
        [$status, $out, $err] = Processes::finish($proc, $pipes);
        $this->assertSame(0, $status, $err);
        $r = json_decode(trim($out), true);
        $this->assertTrue($r['ok'], $out . $err);
        $this->assertLessThan(1.0, $r['at'] - $released, 'the writer was not woken by the release');
    }

    public function testSemaphoreKeysShareOneSlot(): void
    {
        $o = $this->options();
        $holder = new RSemaphore('sem', 2, $o);
        $this->assertTrue($holder->acquire(2));
        $code = '$s = new RSemaphore("sem", 2, json_decode($argv[1], true)); $ok = $s->acquire(1, 8000);'
            . ' echo json_encode(["ok" => $ok, "at" => microtime(true)]), "\n"; $s->release();';
        [$proc, $pipes] = Processes::start($code, [json_encode($o)]);
        // the child waits: holders, queue, waiters and its own list all in one slot
        $slot = self::slot($this->prefix . 'sem');
        $port = self::masterOf($slot);
        $deadline = microtime(true) + 5;
        do {
            usleep(5000);
            $keys = self::$nodes[$port]->command('KEYS', '*' . $this->prefix . 'sem*');
        } while (count($keys) < 3 && microtime(true) < $deadline);
        $this->assertGreaterThanOrEqual(3, count($keys), 'holders, queue, waiters: ' . json_encode($keys));
        foreach ($keys as $k) {
            $this->assertSame($slot, self::slot($k), $k);
        }
        $released = microtime(true);
        $this->assertTrue($holder->release());
        [$status, $out, $err] = Processes::finish($proc, $pipes);
        $this->assertSame(0, $status, $err);
        $r = json_decode(trim($out), true);
        $this->assertTrue($r['ok'], $out . $err);
        $this->assertLessThan(1.0, $r['at'] - $released, 'the waiter was not woken by the release');
        $this->assertSame(2, $holder->available());
    }

    public function testRateLimiterOnEveryMasterAndAllOverOneHashTag(): void
    {
        // a lock's lease is no option of a limiter's
        $o = array_diff_key($this->options(), ['ttl' => true]);
        // a limit on each master: its one key there, taken and refused through the Cluster
        foreach (array_keys(self::masters()) as $port) {
            $name = $this->keyOn($port, 'rate');
            $l = new RRateLimiter($name, 2, 60000, $o);
            $this->assertTrue($l->tryAcquire(2), $name);
            $this->assertFalse($l->tryAcquire(), $name);
            $this->assertGreaterThan(0, $l->retryAfter());
            $this->assertSame(0, $l->remaining());
            $key = '}{' . $this->prefix . $name . '}:rate';
            $this->assertSame(1, self::$nodes[$port]->command('EXISTS', $key), "$key on its master");
            $l->reset();
            $this->assertSame(2, $l->remaining());
        }
        // all(): per buyer and in all, one hash tag, one slot, one script
        $all = new RRateLimiter('{sale}all', 3, 60000, $o);
        $buyer = fn (int $id) => new RRateLimiter("{sale}buyer:$id", 1, 60000, $o);
        $this->assertTrue(RRateLimiter::all([$buyer(1), $all]));
        $this->assertFalse(RRateLimiter::all([$buyer(1), $all]));
        $this->assertSame(2, $all->remaining(), 'a refusal took nothing');
        $this->assertTrue(RRateLimiter::all([$buyer(2), $all], 1));
        // not one slot: refused before anything is sent
        try {
            RRateLimiter::all([new RRateLimiter('a', 1, 1000, $o), new RRateLimiter('b', 1, 1000, $o)]);
            $this->fail('all() across slots');
        } catch (ValueError $e) {
            $this->assertStringContainsString('do not share one Cluster slot', $e->getMessage());
        }
    }

    public function testMultiLockOverKeysSharingAHashTag(): void
    {
        $slot = self::slot('acct');
        $port = self::masterOf($slot);
        // seeded by a master that does not serve the slot: every command is routed there
        $seed = current(array_diff(array_keys(self::masters()), [$port]));
        $o = $this->options(['cluster' => ["127.0.0.1:$seed"]]);
        $m = RLock::multi(['{acct}:2', '{acct}:1'], $o);
        $this->assertTrue($m->lock());
        foreach (['{acct}:1', '{acct}:2'] as $k) {
            $this->assertSame($m->token(), self::get($port, $this->prefix . $k));
        }
        $this->assertTrue($m->isAcquired());
        $this->assertTrue($m->isLocked());
        $this->assertGreaterThan(9000, $m->ttl());
        $this->assertTrue($m->extend(20000));
        // a plain lock on one of its keys: excluded in another context (a Fiber here); in this
        // one, it would wait for itself
        $f = new Fiber(fn () => (new RLock('{acct}:1', $o))->tryLock());
        $f->start();
        $this->assertFalse($f->getReturn(), 'a plain lock on one of its keys');
        try {
            (new RLock('{acct}:1', $o))->tryLock();
            $this->fail('a plain lock on a key this context holds through the multi lock');
        } catch (RLockException $e) {
            $this->assertStringContainsString('would wait for itself', $e->getMessage());
        }

        // a waiter in another process, keys in the other order, woken by the release
        $code = '$l = RLock::multi(["{acct}:1", "{acct}:2"], json_decode($argv[1], true)); $ok = $l->lock(8000);'
            . ' echo json_encode(["ok" => $ok, "at" => microtime(true)]), "\n"; $l->unlock();';
        [$proc, $pipes] = Processes::start($code, [json_encode($o)]);
        $deadline = microtime(true) + 5;
        while (!preg_match('/^blocked_clients:[1-9]/m', (string) self::$nodes[$port]->command('INFO', 'clients')) && microtime(true) < $deadline) {
            usleep(5000);
        }
        $released = microtime(true);
        $this->assertTrue($m->unlock());
        [$status, $out, $err] = Processes::finish($proc, $pipes);
        $this->assertSame(0, $status, $err);
        $r = json_decode(trim($out), true);
        $this->assertTrue($r['ok'], $out . $err);
        $this->assertLessThan(1.0, $r['at'] - $released, 'the waiter was not woken by the release');
        $this->assertSame(0, self::$nodes[$port]->command('EXISTS', $this->prefix . '{acct}:1', $this->prefix . '{acct}:2'));
    }

    /**
     * RLock::release() takes what key() returns, from another process (a job handed the lock),
     * where the key as written and the key with the prefix added live in different slots, on
     * different masters: the one that holds the token is released, the other left alone. A
     * read-write lock's side and a lock over several keys alike.
     */
    public function testReleaseByKeyAcrossSlots(): void
    {
        $o = $this->options();
        $ports = array_keys(self::masters());
        // user keys "x" and PREFIX."x": Redis keys PREFIX."x" and PREFIX.PREFIX."x", on two masters
        for ($i = 0; self::masterOf(self::slot($this->prefix . "x$i")) === self::masterOf(self::slot($this->prefix . $this->prefix . "x$i")); $i++) {
        }
        [$x, $px] = [new RLock("x$i", $o), new RLock($this->prefix . "x$i", $o)];
        $this->assertTrue($x->tryLock());
        $this->assertTrue($px->tryLock());
        $rw = new RReadWriteLock($this->keyOn($ports[0], 'rw'), $o);
        $this->assertTrue($rw->writeLock()->tryLock());
        $m = RLock::multi(['{job}:1', '{job}:2'], $o);
        $this->assertTrue($m->tryLock());

        $code = '$o = json_decode($argv[1], true); foreach (array_chunk(array_slice($argv, 2), 2) as [$k, $t]) {'
            . ' echo json_encode(RLock::release($k, $t, $o)), "\n"; }';
        [$proc, $pipes] = Processes::start($code, [json_encode($o), $px->key(), $px->token(), $this->prefix . "x$i", $x->token(),
            $rw->writeLock()->key(), $rw->writeLock()->token(), $m->key(), $m->token(), $x->key(), $x->token()]);
        [$status, $out, $err] = Processes::finish($proc, $pipes);
        $this->assertSame(0, $status, $err);
        // the last: x's key() with the token it held, released already
        $this->assertSame("true\ntrue\ntrue\ntrue\nfalse\n", $out, $err);
        foreach ([$x, $px, $rw->writeLock(), $m] as $l) {
            $this->assertFalse($l->isAcquired());
        }
        // free for another context (this one still counts $m's hold: its unlock() would say false)
        $fiber = new Fiber(fn () => (new RLock('{job}:1', $o))->tryLock());
        $fiber->start();
        $this->assertTrue($fiber->getReturn());
    }

    /**
     * The lock key's slot moves from master A to master B while the lock is held: once the
     * key went over, commands for it get ASK from A; the migration ends (SETSLOT NODE) half a
     * second later while the lock is being used.
     */
    public function testLockAcrossASlotMigration(): void
    {
        $o = $this->options(['reentrant' => false]);
        $masters = array_keys(self::masters());
        [$a, $b] = $masters;
        $key = $this->keyOn($a);
        $holder = new RLock($key, $o);
        $this->assertTrue($holder->lock());
        $slot = self::slot($holder->key());
        $token = $holder->token();

        $this->startMigration($slot, $a, $b);
        $this->assertTrue($holder->isAcquired(), 'migration started, key still on A');

        $keys = self::$nodes[$a]->command('CLUSTER', 'GETKEYSINSLOT', (string) $slot, '100');
        $this->assertContains($holder->key(), $keys);
        $this->assertSame('OK', self::$nodes[$a]->command('MIGRATE', '127.0.0.1', (string) $b, '', '0', '5000', 'KEYS', ...$keys));
        $this->assertStringStartsWith("ASK $slot 127.0.0.1:$b", self::get($a, $holder->key())['error'] ?? '');
        $this->assertSame($token, self::get($b, $holder->key(), true));

        // single-key commands follow ASK to B
        $this->assertTrue($holder->isLocked());
        $this->assertTrue($holder->isAcquired(), 'the key on B, asked through A');
        $this->assertGreaterThan(5000, $holder->ttl());
        $this->assertTrue($holder->extend(20000));
        self::$nodes[$b]->command('ASKING');
        $this->assertGreaterThan(15000, self::$nodes[$b]->command('PTTL', $holder->key()));

        // the migration ends in half a second, while the lock is used
        $finish = "sleep 0.5; redis-cli -p $b CLUSTER SETSLOT $slot NODE " . self::$ids[$b]
            . "; redis-cli -p $a CLUSTER SETSLOT $slot NODE " . self::$ids[$b];
        foreach (array_slice($masters, 2) as $m) {
            $finish .= "; redis-cli -p $m CLUSTER SETSLOT $slot NODE " . self::$ids[$b];
        }
        $this->background[] = $bg = proc_open(['sh', '-c', "($finish) >/dev/null 2>&1"], [], $pipes);
        $started = microtime(true);

        $competitor = new RLock($key, $o);
        $this->assertFalse($competitor->tryLock(), 'a second holder during the migration');
        $this->assertTrue($holder->unlock(), 'release during the migration');
        $this->assertTrue($competitor->lock(3000), 'acquire during the migration');
        $fresh = new RLock('{' . $holder->key() . '}:fresh', ['prefix' => ''] + $o);
        $this->assertTrue($fresh->lock(3000), 'a new key in the migrating slot');
        $this->assertLessThan(3000, self::ms($started));

        // after the migration the slot is B's
        while (proc_get_status($bg)['running']) {
            usleep(10000);
        }
        $this->moving = null;
        self::awaitHealthy(10);
        $this->assertSame($b, self::masterOf($slot));
        $this->assertSame($competitor->token(), self::get($b, $competitor->key()));
        $this->assertSame($fresh->token(), self::get($b, $fresh->key()));
        $this->assertTrue($competitor->unlock());
        $this->assertTrue($fresh->unlock());
        $this->assertSame(0, self::$nodes[$b]->command('EXISTS', $competitor->key()));
        $this->assertSame(0, self::$nodes[$b]->command('EXISTS', $fresh->key()));
    }

    /** A slot that moved while nobody looked: the slot map of this process is stale (MOVED). */
    public function testStaleSlotMapFollowsMoved(): void
    {
        $o = $this->options(['reentrant' => false]);
        $masters = array_keys(self::masters());
        [$a, $b] = [$masters[2], $masters[1]];
        $key = $this->keyOn($a);
        $l = new RLock($key, $o);
        $this->assertTrue($l->tryLock());  // the process learns the slot map
        $this->assertTrue($l->unlock());
        $slot = self::slot($l->key());

        $this->startMigration($slot, $a, $b);
        $this->assertSame([], self::$nodes[$a]->command('CLUSTER', 'GETKEYSINSLOT', (string) $slot, '100'));
        foreach ([$b, $a, $masters[0]] as $m) {
            $this->assertSame('OK', self::$nodes[$m]->command('CLUSTER', 'SETSLOT', (string) $slot, 'NODE', self::$ids[$b]));
        }
        $this->moving = null;
        self::awaitHealthy(10);
        $this->assertSame($b, self::masterOf($slot));
        $this->assertStringStartsWith("MOVED $slot 127.0.0.1:$b", self::get($a, $l->key())['error'] ?? '');

        $this->assertTrue($l->tryLock());
        $this->assertSame($l->token(), self::get($b, $l->key()));
        $this->assertTrue($l->isAcquired());
        $this->assertTrue($l->unlock());
        $this->assertSame(0, self::$nodes[$b]->command('EXISTS', $l->key()));
    }

    /**
     * Issue 31: the watchdog renews each key on the node that serves its slot, from one seed.
     * A lock on every master outlives several leases; then a slot moves with its lock key
     * (ASK while it moves, MOVED after, for the node the watchdog renews on), and a master's
     * replica takes over (CLUSTER FAILOVER: the old master, a replica now, answers MOVED):
     * the renewals follow, and no lock is lost. (Before: the option was refused.)
     */
    public function testWatchdogRenewsOnTheNodeOfEachSlotAcrossMovedAndAFailover(): void
    {
        $ttl = 3000;
        $o = $this->options(['ttl' => $ttl, 'watchdog' => true, 'reentrant' => false]);
        $masters = array_keys(self::masters());
        $locks = [];
        foreach ($masters as $m) {
            $l = new RLock($this->keyOn($m, 'wd'), $o);
            $this->assertTrue($l->lock());
            $locks[$m] = $l;
        }
        $held = function (string $when) use ($locks): void {
            foreach ($locks as $l) {
                $this->assertFalse($l->lost(), $when);
                $port = self::masterOf(self::slot($l->key()));
                $this->assertSame($l->token(), self::get($port, $l->key()), "$when: on $port");
                $this->assertGreaterThan(0, self::$nodes[$port]->command('PTTL', $l->key()), $when);
            }
        };
        usleep(2 * $ttl * 1000);
        $held('after two leases');

        // the slot of A's lock moves to B, the key with it
        [$a, $b] = $masters;
        $slot = self::slot($locks[$a]->key());
        $this->startMigration($slot, $a, $b);
        $keys = self::$nodes[$a]->command('CLUSTER', 'GETKEYSINSLOT', (string) $slot, '100');
        $this->assertSame('OK', self::$nodes[$a]->command('MIGRATE', '127.0.0.1', (string) $b, '', '0', '5000', 'KEYS', ...$keys));
        usleep($ttl * 1000);  // a renewal or two by way of ASK
        $this->assertFalse($locks[$a]->lost(), 'renewed while the slot moves');
        foreach (array_unique(array_merge([$b, $a], $masters)) as $m) {
            $this->assertSame('OK', self::$nodes[$m]->command('CLUSTER', 'SETSLOT', (string) $slot, 'NODE', self::$ids[$b]));
        }
        $this->moving = null;
        self::awaitHealthy(10);
        usleep(2 * $ttl * 1000);
        $held('after the slot moved');

        // a master with a replica hands over to it
        $all = self::masters();
        $c = array_key_first(array_filter($all, fn ($m) => count($m['replicas']) === 1));
        $r = $all[$c]['replicas'][0];
        $this->assertSame('OK', self::$nodes[$r]->command('CLUSTER', 'FAILOVER'));
        $deadline = microtime(true) + 10;
        while (self::$nodes[$r]->info('replication')['role'] !== 'master') {
            $this->assertLessThan($deadline, microtime(true), 'the replica was not promoted within 10 s');
            usleep(20000);
        }
        self::awaitHealthy(10);
        usleep(2 * $ttl * 1000);
        $held('after the failover');
        foreach ($locks as $l) {
            $this->assertTrue($l->unlock());
        }
    }

    /**
     * Four processes increment a counter under the lock with sync_replicas => 1 while the
     * replica of the lock key's master takes over (CLUSTER FAILOVER): every section that
     * counted itself counted once.
     */
    public function testNoLostUpdateAcrossAFailoverWithSyncReplicas(): void
    {
        $masters = self::masters();
        $a = array_key_first(array_filter($masters, fn ($m) => count($m['replicas']) === 1));
        $r = $masters[$a]['replicas'][0];
        $key = $this->keyOn($a);
        $o = $this->options(['cluster' => array_map(fn ($p) => "127.0.0.1:$p", array_keys(self::$nodes)),
            'sync_replicas' => 1, 'ttl' => 5000, 'retry_delay' => 10]);

        $counter = tempnam(sys_get_temp_dir(), 'rlock-cluster-counter-');
        $stop = $counter . '.stop';
        file_put_contents($counter, '0');
        $code = <<<'PHP'
            [, $options, $key, $counter, $stop] = $argv;
            $l = new RLock($key, json_decode($options, true));
            $ok = $failed = $errors = $unlockErrors = 0;
            echo "ready\n";
            while (!file_exists($stop)) {
                try {
                    if (!$l->lock(3000)) {
                        $failed++;
                        continue;
                    }
                } catch (RLockException $e) {
                    $errors++;
                    usleep(20000);
                    continue;
                }
                $v = (int) file_get_contents($counter);
                usleep(random_int(100, 1000));
                file_put_contents($counter . '.' . getmypid(), (string) ($v + 1));
                rename($counter . '.' . getmypid(), $counter);  // readers never see a half-written file
                $ok++;
                try {
                    $l->unlock();
                } catch (RLockException $e) {
                    $unlockErrors++;
                }
            }
            echo json_encode(compact('ok', 'failed', 'errors', 'unlockErrors')), "\n";
            PHP;
        $children = [];
        $count = fn () => (int) file_get_contents($counter);
        $await = function (callable $cond, float $seconds, string $what): void {
            $deadline = microtime(true) + $seconds;
            while (!$cond()) {
                if (microtime(true) > $deadline) {
                    $this->fail("$what within $seconds s");
                }
                usleep(10000);
            }
        };
        try {
            for ($p = 0; $p < 4; $p++) {
                $children[] = Processes::start($code, [json_encode($o), $key, $counter, $stop]);
            }
            foreach ($children as [, $pipes]) {
                $this->assertSame('ready', Processes::readLine($pipes));
            }
            $await(fn () => $count() >= 50, 10, '50 sections before the failover');

            $this->assertSame('OK', self::$nodes[$r]->command('CLUSTER', 'FAILOVER'));
            $await(fn () => self::$nodes[$r]->info('replication')['role'] === 'master'
                && self::masterOf(self::slot($this->prefix . $key)) === $r, 10, 'the replica promoted');
            $atFailover = $count();
            $await(fn () => $count() >= $atFailover + 50, 10, '50 sections after the failover');
        } finally {
            // the children stop at the end of their section, also when the test failed
            touch($stop);
            $results = array_map(fn ($c) => Processes::finish(...$c), $children);
        }

        $ok = 0;
        $report = [];
        foreach ($results as [$status, $out, $err]) {
            $this->assertSame(0, $status, $out . $err);
            $res = json_decode(trim($out), true);
            $this->assertIsArray($res, $out . $err);
            $ok += $res['ok'];
            $report[] = $res;
        }
        $value = $count();
        unlink($counter);
        unlink($stop);
        $this->assertSame($ok, $value, 'an update was lost: two processes held the lock at once; ' . json_encode($report));
        $this->assertGreaterThanOrEqual($atFailover + 50, $value);
        $this->assertSame('slave', self::$nodes[$a]->info('replication')['role']);
        self::awaitHealthy(10);
    }

    /**
     * SIGKILL the master of a held lock: its replica is promoted, holds the lock (it reached
     * the replica: sync_replicas => 1), and a new RLock works on it soon after.
     */
    public function testMasterKilledReplicaPromoted(): void
    {
        $masters = self::masters();
        $a = array_key_first(array_filter($masters, fn ($m) => count($m['replicas']) === 1));
        $r = $masters[$a]['replicas'][0];
        $o = $this->options(['cluster' => array_map(fn ($p) => "127.0.0.1:$p", array_keys(self::$nodes)),
            'sync_replicas' => 1, 'reentrant' => false, 'ttl' => 30000]);
        $key = $this->keyOn($a);
        $holder = new RLock($key, $o);
        $this->assertTrue($holder->lock());
        self::$nodes[$r]->command('READONLY');
        $this->assertSame($holder->token(), self::$nodes[$r]->command('GET', $holder->key()),
            'sync_replicas => 1 returned before the replica had the lock');
        $slot = self::slot($holder->key());
        // renewed by the watchdog, on the promoted replica after the kill (issue 31)
        $watched = new RLock('{' . $holder->key() . '}:watched', ['prefix' => '', 'ttl' => 15000, 'watchdog' => true] + $o);
        $this->assertTrue($watched->lock());

        $killed = microtime(true);
        self::$nodes[$a]->kill();
        $deadline = microtime(true) + 20;
        while (self::masterOf($slot) !== $r) {
            $this->assertLessThan($deadline, microtime(true), 'the replica was not promoted within 20 s');
            usleep(50000);
        }
        $promoted = microtime(true);

        // a new RLock finds the promoted replica, where the lock still is (no sync_replicas:
        // the promoted replica has no replica of its own)
        $o['sync_replicas'] = 0;
        $other = new RLock($key, $o);
        $fresh = new RLock('{' . $holder->key() . '}:fresh', ['prefix' => ''] + $o);
        $errors = [];
        while (true) {
            try {
                $this->assertTrue($fresh->tryLock());
                break;
            } catch (RLockException $e) {
                $errors[] = $e->getMessage();
                $this->assertLessThan(5000, self::ms($promoted), 'no lock 5 s after the promotion: ' . json_encode($errors));
                usleep(50000);
            }
        }
        $this->assertLessThan(5000, self::ms($promoted));
        $this->assertSame($fresh->token(), self::$nodes[$r]->command('GET', $fresh->key()));
        $this->assertFalse($other->tryLock(), 'the lock was lost in the failover');
        $this->assertTrue($holder->isAcquired());
        $this->assertTrue($holder->unlock());
        $this->assertTrue($other->tryLock());
        $this->assertSame($other->token(), self::$nodes[$r]->command('GET', $other->key()));
        $this->assertTrue($other->unlock());
        $this->assertTrue($fresh->unlock());
        $this->assertLessThan(20000, self::ms($killed));

        // the watchdog found the promoted replica: the lease there goes up again
        $left = self::$nodes[$r]->command('PTTL', $watched->key());
        $this->assertGreaterThan(0, $left, 'the watched lock did not outlive the failover');
        $deadline = microtime(true) + 20;
        while (self::$nodes[$r]->command('PTTL', $watched->key()) <= $left + 500) {
            $this->assertLessThan($deadline, microtime(true), 'no renewal on the promoted replica within 20 s');
            usleep(50000);
        }
        $this->assertSame($watched->token(), self::$nodes[$r]->command('GET', $watched->key()));
        $this->assertFalse($watched->lost());
        $this->assertTrue($watched->unlock());
    }
}
