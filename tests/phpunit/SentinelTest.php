<?php
/*
 * Redis Sentinel (options "sentinel" and "service", CONTRACT section 5) and sync_replicas:
 * one master, one replica and three sentinels (quorum 2) on loopback. The lock finds the
 * master through the sentinels; sync_replicas => 1 returns true only once the replica has
 * the lock, and false (leaving nothing) when the replica cannot confirm; after the master is
 * killed and the replica promoted, a new RLock finds and uses the new master, where a lock
 * taken with sync_replicas => 1 before the failover still holds, and one the watchdog renews
 * is renewed on the new master.
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit -c tests/phpunit/phpunit.xml tests/phpunit/SentinelTest.php
 *
 * The failover test kills the master for good and runs last.
 */

declare(strict_types=1);

use PHPUnit\Framework\TestCase;

final class SentinelTest extends TestCase
{
    private const SERVICE = 'mymaster';
    private const READ_TIMEOUT = 300;

    private static RedisServer $master;
    private static RedisServer $replica;
    /** @var RedisServer[] */
    private static array $sentinels = [];
    private string $prefix;

    public static function setUpBeforeClass(): void
    {
        // no 5 s wait before a diskless full sync (the default of Redis 7)
        self::$master = new RedisServer(['--repl-diskless-sync-delay', '0']);
        self::$replica = new RedisServer(['--replicaof', '127.0.0.1', (string) self::$master->port,
            '--repl-diskless-sync-delay', '0']);
        self::await(fn () => (self::$replica->info('replication')['master_link_status'] ?? '') === 'up', 10, 'replica link up');
        for ($i = 0; $i < 3; $i++) {
            self::$sentinels[] = new RedisServer(['--sentinel'], null, [
                'sentinel monitor ' . self::SERVICE . ' 127.0.0.1 ' . self::$master->port . ' 2',
                'sentinel down-after-milliseconds ' . self::SERVICE . ' 1000',
                'sentinel failover-timeout ' . self::SERVICE . ' 3000',
            ]);
        }
        // each sentinel knows the replica and the two other sentinels
        self::await(function () {
            foreach (self::$sentinels as $s) {
                $m = $s->sentinelMaster(self::SERVICE);
                if ((int) $m['num-other-sentinels'] !== 2 || (int) $m['num-slaves'] !== 1) {
                    return false;
                }
            }
            return true;
        }, 15, 'the sentinels know each other and the replica');
    }

    public static function tearDownAfterClass(): void
    {
        foreach (self::$sentinels as $s) {
            $s->stop();
        }
        self::$sentinels = [];
        foreach (['replica', 'master'] as $name) {
            if (isset(self::$$name)) {
                self::$$name->stop();
            }
        }
    }

    protected function setUp(): void
    {
        $this->prefix = 'sentinel-test:' . rlock_test_name($this) . ':' . bin2hex(random_bytes(4)) . ':';
    }

    protected function tearDown(): void
    {
        self::$replica->resume();
    }

    private static function await(callable $cond, float $seconds, string $what): void
    {
        $deadline = microtime(true) + $seconds;
        while (!$cond()) {
            if (microtime(true) > $deadline) {
                self::fail("not within $seconds s: $what");
            }
            usleep(20000);
        }
    }

    private function options(array $more = []): array
    {
        return $more + [
            'sentinel' => array_map(fn (RedisServer $s) => '127.0.0.1:' . $s->port, self::$sentinels),
            'service' => self::SERVICE,
            'prefix' => $this->prefix,
            'ttl' => 30000,
            'connect_timeout' => self::READ_TIMEOUT,
            'read_timeout' => self::READ_TIMEOUT,
        ];
    }

    private static function ms(float $since): float
    {
        return (microtime(true) - $since) * 1000;
    }

    public function testLockThroughTheSentinels(): void
    {
        $l = new RLock('k', $this->options());
        $this->assertTrue($l->lock());
        $this->assertSame($l->token(), self::$master->command('GET', $l->key()));
        $this->assertTrue($l->isAcquired());
        $other = new RLock('k', $this->options(['reentrant' => false]));
        $this->assertFalse($other->tryLock());
        $this->assertTrue($l->unlock());
        $this->assertSame(0, self::$master->command('EXISTS', $l->key()));

        // a sentinel that is down is skipped
        $dead = '127.0.0.1:' . RedisServer::freePort();
        $o = $this->options();
        $o['sentinel'] = array_merge([$dead], $o['sentinel']);
        $l = new RLock('k2', $o);
        $this->assertTrue($l->tryLock());
        $this->assertSame($l->token(), self::$master->command('GET', $l->key()));
        $this->assertTrue($l->unlock());

        // a service the sentinels do not know
        $l = new RLock('k3', $this->options(['service' => 'nosuchmaster']));
        try {
            $l->tryLock();
            $this->fail('a lock on a service nobody knows');
        } catch (RLockConnectionException $e) {
            $this->assertStringContainsString('nosuchmaster', $e->getMessage());
        }
    }

    public function testRateLimiterThroughTheSentinels(): void
    {
        // a lock's lease is no option of a limiter's
        $o = array_diff_key($this->options(), ['ttl' => true]);
        $l = new RRateLimiter('api', 2, 60000, $o);
        $this->assertTrue($l->tryAcquire(2));
        $this->assertFalse($l->tryAcquire());
        $this->assertSame(0, $l->remaining());
        $key = '}{' . $this->prefix . 'api}:rate';
        $pttl = self::$master->command('PTTL', $key);
        $this->assertGreaterThan(0, $pttl, 'the limit is on the master the Sentinels name');
        $this->assertLessThanOrEqual(60000, $pttl);
        $other = new RRateLimiter('api', 2, 60000, $o);
        $this->assertTrue(RRateLimiter::all([$other]) === false && $other->retryAfter() > 0);
        $l->reset();
        $this->assertSame(0, self::$master->command('EXISTS', $key));
    }

    public function testSyncReplicasReturnsOnceTheReplicaHasTheLock(): void
    {
        $l = new RLock('s', $this->options(['sync_replicas' => 1]));
        $this->assertTrue($l->tryLock());
        self::$replica->command('READONLY');
        $this->assertSame($l->token(), self::$replica->command('GET', $l->key()), 'true before the replica had the lock');
        $this->assertTrue($l->unlock());

        // more replicas than there are: false after read_timeout, nothing left behind
        $l = new RLock('s2', $this->options(['sync_replicas' => 2]));
        $t = microtime(true);
        $this->assertFalse($l->tryLock());
        $this->assertLessThan(3 * self::READ_TIMEOUT, self::ms($t));
        $this->assertNull($l->token());
        $this->assertSame(0, self::$master->command('EXISTS', $l->key()));
    }

    public function testSyncReplicasWithTheReplicaStopped(): void
    {
        $l = new RLock('r', $this->options(['sync_replicas' => 1]));
        self::$replica->pause();
        $t = microtime(true);
        $this->assertFalse($l->tryLock(), 'true although no replica confirmed');
        $ms = self::ms($t);
        $this->assertGreaterThanOrEqual(self::READ_TIMEOUT - 50, $ms, 'WAIT gave up before read_timeout');
        $this->assertLessThan(3 * self::READ_TIMEOUT, $ms);
        $this->assertNull($l->token());
        $this->assertSame(0, self::$master->command('EXISTS', $l->key()), 'the lock was left behind');
        $this->assertFalse($l->isLocked());

        $waiting = new RLock('r2', $this->options(['sync_replicas' => 1]));
        $t = microtime(true);
        $this->assertFalse($waiting->lock(500));
        $this->assertLessThan(500 + 3 * self::READ_TIMEOUT, self::ms($t));
        $this->assertSame(0, self::$master->command('EXISTS', $waiting->key()), 'the lock was left behind');

        // the replica back: the lock again, and the sentinels see the replica up (a candidate
        // for the failover of the next test)
        self::$replica->resume();
        $this->assertTrue($l->lock(5000));
        $this->assertTrue($l->unlock());
        self::await(function () {
            foreach (self::$sentinels as $s) {
                $replicas = $s->command('SENTINEL', 'REPLICAS', self::SERVICE);
                $flags = $replicas[0][array_search('flags', $replicas[0], true) + 1] ?? '';
                if ($flags !== 'slave') {
                    return false;
                }
            }
            return true;
        }, 10, 'the sentinels see the replica up');
    }

    public function testANewRLockFindsTheMasterAfterAFailover(): void
    {
        $o = $this->options(['reentrant' => false]);
        $old = self::$master->port;
        $promoted = self::$replica->port;
        foreach (self::$sentinels as $s) {
            $this->assertSame(['127.0.0.1', (string) $old], $s->command('SENTINEL', 'get-master-addr-by-name', self::SERVICE));
        }
        // taken before the failover, and on the replica before lock() returned
        $holder = new RLock('f', $o + ['sync_replicas' => 1]);
        $this->assertTrue($holder->lock());
        $before = new RLock('f2', $o);  // made before, used after
        // renewed by the watchdog on the master the Sentinels name, before and after (issue 31)
        $watched = new RLock('wd', $o + ['sync_replicas' => 1, 'ttl' => 20000, 'watchdog' => true]);
        $this->assertTrue($watched->lock());

        self::$master->kill();
        $killed = microtime(true);
        self::await(function () use ($promoted) {
            foreach (self::$sentinels as $s) {
                if (($s->command('SENTINEL', 'get-master-addr-by-name', self::SERVICE)[1] ?? '') !== (string) $promoted) {
                    return false;
                }
            }
            return true;
        }, 30, 'the sentinels name the replica as master');
        $switched = microtime(true);
        $this->assertSame('master', self::$replica->info('replication')['role']);

        $l = new RLock('n', $o);
        $this->assertTrue($l->lock(), 'no lock on the new master');
        $this->assertLessThan(2000, self::ms($switched));
        $this->assertSame($l->token(), self::$replica->command('GET', $l->key()));
        $this->assertTrue($l->unlock());
        $this->assertSame(0, self::$replica->command('EXISTS', $l->key()));

        // the watchdog finds the new master: the lease there goes up again (a renewal), and
        // the lock is neither lost nor anyone else's
        $left = self::$replica->command('PTTL', $watched->key());
        $this->assertGreaterThan(0, $left, 'the watched lock did not outlive the failover');
        self::await(fn () => self::$replica->command('PTTL', $watched->key()) > $left + 500, 20,
            'a renewal on the new master');
        $this->assertSame($watched->token(), self::$replica->command('GET', $watched->key()));
        $this->assertFalse($watched->lost());

        $this->assertTrue($before->tryLock());
        $this->assertSame($before->token(), self::$replica->command('GET', $before->key()));
        $this->assertTrue($before->unlock());

        // the lock of before the failover still holds on the new master
        $competitor = new RLock('f', $o);
        $this->assertFalse($competitor->tryLock(), 'the lock was lost in the failover');
        $this->assertTrue($holder->isAcquired());
        $this->assertTrue($holder->unlock());
        $this->assertTrue($competitor->tryLock());
        $this->assertTrue($competitor->unlock());
        $this->assertFalse($watched->lost());
        $this->assertTrue($watched->unlock());
        $this->assertSame(0, self::$replica->command('EXISTS', $watched->key()));
        $this->assertLessThan(30000, self::ms($killed));
    }
}
