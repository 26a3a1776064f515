<?php
/*
 * Failures across processes: a holder killed with SIGKILL, a request killed by a fatal
 * error, a Redis that stops answering (SIGSTOP) and a Redis restarted under a waiter.
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit -c tests/phpunit/phpunit.xml --filter FailuresTest
 */

declare(strict_types=1);

use PHPUnit\Framework\Attributes\DataProvider;

final class FailuresTest extends OneServerTestCase
{
    /** Generous: these bound what should take a round trip or a timer tick. */
    private const SLACK_MS = 1500;

    /** Takes the lock, reports its token and the PTTL, then dies as argv's "end" says. */
    private const HOLDER = <<<'PHP'
        [, $cfg] = $argv;
        $cfg = json_decode($cfg, true);
        $r = new Redis();
        $r->connect('127.0.0.1', $cfg['port']);
        $l = new RLock('k', $cfg['opts']);
        $locked = $l->lock();
        echo json_encode(['locked' => $locked, 'token' => $l->token()]), "\n";
        $r->blPop(['die'], 30);
        switch ($cfg['end']) {
            case 'hang':
                sleep(60);
                break;
            case 'fatal':
                ini_set('memory_limit', '16M');
                $hog = [];
                while (true) {
                    $hog[] = str_repeat('x', 1 << 20);
                }
        }
        PHP;

    /** Blocks in lock(); reports when it got it. */
    private const WAITER = <<<'PHP'
        [, $cfg] = $argv;
        $cfg = json_decode($cfg, true);
        $l = new RLock('k', $cfg['opts']);
        try {
            $got = $l->lock($cfg['wait']);
            echo json_encode(['got' => $got, 'at' => microtime(true), 'mine' => $got && $l->isAcquired()]), "\n";
        } catch (RLockException $e) {
            echo json_encode(['error' => $e->getMessage(), 'at' => microtime(true)]), "\n";
        }
        PHP;

    /** Blocks in lock() (of the key, or of the key and another); once it has it, counts itself
     *  inside (INCR: 1 when alone), holds it hold_ms, leaves, unlocks; reports when it got it. */
    private const WAITER_HOLDS = <<<'PHP'
        [, $cfg] = $argv;
        $cfg = json_decode($cfg, true);
        $l = $cfg['multi'] ? RLock::multi(['k', 'other'], $cfg['opts']) : new RLock('k', $cfg['opts']);
        try {
            $got = $l->lock($cfg['wait']);
            $at = microtime(true);
            $r = new Redis();
            $r->connect('127.0.0.1', $cfg['port']);
            $inside = $got ? $r->incr('inside') : 0;
            usleep($cfg['hold_ms'] * 1000);
            $got && $r->decr('inside');
            echo json_encode(['got' => $got, 'at' => $at, 'inside' => $inside, 'unlocked' => $got && $l->unlock()]), "\n";
        } catch (RLockException $e) {
            echo json_encode(['error' => $e->getMessage(), 'at' => microtime(true)]), "\n";
        }
        PHP;

    private function options(array $more = []): array
    {
        return $more + ['server' => $this->redis->dsn(), 'prefix' => 'failures:', 'reentrant' => false];
    }

    /** @return array{0: resource, 1: array} */
    private function start(string $code, array $cfg): array
    {
        $child = Processes::start($code, [json_encode($cfg + ['port' => $this->redis->port])]);
        $this->children[] = $child;
        return $child;
    }

    private function awaitExit($proc, float $seconds = 10): void
    {
        $this->await(fn() => !proc_get_status($proc)['running'], 'the process exited', $seconds);
    }

    public function testHolderKilledWithSigkillBlocksOthersOnlyUntilItsTtl(): void
    {
        $ttl = 2000;
        [$holder, $hp] = $this->start(self::HOLDER, ['opts' => $this->options(['ttl' => $ttl]), 'end' => 'hang']);
        $this->assertTrue(json_decode(Processes::readLine($hp), true)['locked']);
        // a waiter already blocked, and a newcomer after the kill
        [, $wp] = $this->start(self::WAITER, ['opts' => $this->options(['ttl' => 5000]), 'wait' => 20000]);
        // the holder blocks on "die", the waiter on the lock
        $this->await(fn() => (int) $this->client->info('clients')['blocked_clients'] >= 2, 'the waiter blocked');

        $pttl = (int) $this->client->pttl('failures:k');
        $killedAt = microtime(true);
        posix_kill(proc_get_status($holder)['pid'], SIGKILL);
        $this->awaitExit($holder);

        $w = json_decode(Processes::readLine($wp, 20), true);
        $this->assertTrue($w['got'] ?? false, json_encode($w));
        $this->assertTrue($w['mine']);
        $waited = ($w['at'] - $killedAt) * 1000;
        $this->assertGreaterThan($pttl - 300, $waited, 'the lease of the dead holder was not respected');
        $this->assertLessThan($pttl + self::SLACK_MS, $waited, 'blocked beyond the dead holder\'s ttl');
    }

    public function testNewcomerGetsTheLockOfAKilledHolderAfterItsTtl(): void
    {
        $ttl = 1500;
        [$holder, $hp] = $this->start(self::HOLDER, ['opts' => $this->options(['ttl' => $ttl]), 'end' => 'hang']);
        $this->assertTrue(json_decode(Processes::readLine($hp), true)['locked']);
        posix_kill(proc_get_status($holder)['pid'], SIGKILL);
        $this->awaitExit($holder);
        $pttl = (int) $this->client->pttl('failures:k');
        $this->assertGreaterThan(0, $pttl, 'the dead holder\'s lease should still run');

        $l = new RLock('k', $this->options());
        $this->assertFalse($l->tryLock());
        $t0 = microtime(true);
        $this->assertTrue($l->lock(10000));
        $this->assertLessThan($pttl + self::SLACK_MS, (microtime(true) - $t0) * 1000);
        $this->assertTrue($l->unlock());
    }

    public function testRequestKilledByFatalErrorFreesItsLockAtOnce(): void
    {
        // a lease of a minute: only the release at request end can free it in time
        [$holder, $hp] = $this->start(self::HOLDER, ['opts' => $this->options(['ttl' => 60000]), 'end' => 'fatal']);
        $this->assertTrue(json_decode(Processes::readLine($hp), true)['locked']);
        [, $wp] = $this->start(self::WAITER, ['opts' => $this->options(['ttl' => 5000]), 'wait' => 30000]);
        $this->await(fn() => (int) $this->client->info('clients')['blocked_clients'] >= 2, 'the waiter blocked');

        $t0 = microtime(true);
        $this->client->rPush('die', '1');
        $this->awaitExit($holder);
        [, $out, $err] = Processes::finish($holder, $hp);
        array_shift($this->children);
        $this->assertStringContainsString('Allowed memory size', $out . $err);

        $w = json_decode(Processes::readLine($wp, 20), true);
        $this->assertTrue($w['got'] ?? false, json_encode($w));
        $this->assertLessThan(self::SLACK_MS, ($w['at'] - $t0) * 1000, 'the dead request\'s lock was not freed at once');
    }

    public function testStoppedRedisGivesConnectionExceptionWithinReadTimeout(): void
    {
        $readTimeout = 500;
        $l = new RLock('k', $this->options(['read_timeout' => $readTimeout, 'ttl' => 60000]));
        $this->assertTrue($l->lock());

        $this->redis->pause();
        try {
            foreach (['isLocked', 'extend', 'ttl'] as $method) {
                $t0 = microtime(true);
                try {
                    $l->$method();
                    $this->fail("$method() returned while Redis is stopped");
                } catch (RLockConnectionException $e) {
                    $ms = (microtime(true) - $t0) * 1000;
                    $this->assertStringStartsWith('Redis 127.0.0.1:' . $this->redis->port . ': ', $e->getMessage());
                    $this->assertStringContainsString('timed out', $e->getMessage());
                    $this->assertLessThan($readTimeout + self::SLACK_MS, $ms, "$method() blocked past read_timeout");
                }
            }
            // a blocking wait is bounded too: its wait plus read_timeout
            $other = new RLock('k2', $this->options(['read_timeout' => $readTimeout]));
            $t0 = microtime(true);
            try {
                $other->lock(300);
                $this->fail('lock() returned while Redis is stopped');
            } catch (RLockConnectionException $e) {
                $this->assertLessThan(300 + $readTimeout + self::SLACK_MS, (microtime(true) - $t0) * 1000);
            }
        } finally {
            $this->redis->resume();
        }

        // the next calls work on a fresh connection, and the lock is still ours
        $this->assertTrue($l->isLocked());
        $this->assertTrue($l->isAcquired());
        $this->assertTrue($l->unlock());
        $this->assertFalse($l->isLocked());
    }

    /** @return array<string, array{0: list<string>}> the keys of a plain lock (one) or of RLock::multi() */
    public static function lockKeys(): array
    {
        return ['plain' => [['k']], 'multi' => [['k', 'k2']]];
    }

    /** @dataProvider lockKeys */
    #[DataProvider('lockKeys')]
    public function testAcquireLostInAStoppedRedisLeavesNoOrphanLock(array $keys): void
    {
        $o = $this->options(['read_timeout' => 300, 'ttl' => 60000]);
        $make = fn (array $keys) => count($keys) === 1 ? new RLock($keys[0], $o) : RLock::multi($keys, $o);
        $l = $make($keys);
        // Redis knows the scripts and rlock has its connection, as in any process that ran a while
        // (an acquire is a SET NX PX or a script, so both are counted)
        $warm = $make(array_map(fn ($k) => "warm-$k", $keys));
        $this->assertTrue($warm->tryLock());
        $this->assertTrue($warm->unlock());
        $scripts = fn() => array_sum(array_map(
            fn($k, $v) => str_starts_with($k, 'cmdstat_eval') || $k === 'cmdstat_set' ? (int) substr($v, 6) : 0,
            array_keys($stats = $this->client->info('commandstats')), $stats));
        $before = $scripts();
        $this->redis->pause();
        try {
            $l->tryLock();
            $this->fail('tryLock() returned while Redis is stopped');
        } catch (RLockConnectionException $e) {
            $this->assertStringContainsString('timed out', $e->getMessage());
        } finally {
            $this->redis->resume();
        }
        // Redis runs the acquire it had queued when it wakes up, but nobody got its answer:
        // a retry must not find the key held for a minute by a token nobody knows
        $this->await(fn() => $scripts() > $before, 'Redis ran the acquire sent while it was stopped');
        $this->assertTrue($l->tryLock(), 'locked out by the acquire whose reply was lost');
        $this->assertTrue($l->unlock());
        $this->assertFalse($l->isLocked());
    }

    public function testWaiterStillGetsTheLockWhenRedisRestartsUnderIt(): void
    {
        $port = $this->redis->port;
        $holder = new RLock('k', $this->options(['ttl' => 60000]));
        $this->assertTrue($holder->lock());
        [, $wp] = $this->start(self::WAITER, ['opts' => $this->options(['ttl' => 5000]), 'wait' => 20000]);
        $this->await(fn() => (int) $this->client->info('clients')['blocked_clients'] >= 1, 'the waiter blocked');

        // a restart loses every key (no persistence): the lock is free when Redis is back
        $this->redis->stop();
        $this->redis = new RedisServer([], $port);
        $back = microtime(true);
        $this->client = $this->redis->client();

        $w = json_decode(Processes::readLine($wp, 25), true);
        $this->assertTrue($w['got'] ?? false, 'the waiter gave up: ' . json_encode($w));
        $this->assertTrue($w['mine']);
        $this->assertLessThan(5000, ($w['at'] - $back) * 1000, 'the waiter took too long to come back');
    }

    /**
     * Every waiter comes back counted after a restart that lost the count: none of them
     * sleeps out a lease while the others pass (keeping a dropped waiter "counted" did: the
     * first two back made a new count, the rest slept a lease each, about two a lease).
     */
    public function testEveryWaiterServedPromptlyWhenRedisRestartsUnderThem(): void
    {
        $port = $this->redis->port;
        $holder = new RLock('k', $this->options(['ttl' => 60000]));
        $this->assertTrue($holder->lock());
        // leases far longer than the whole run should take: a waiter left uncounted sleeps one
        $opts = $this->options(['ttl' => 20000]);
        $n = 6;
        for ($i = 0; $i < $n; $i++) {
            $this->start(self::WAITER_HOLDS, ['opts' => $opts, 'wait' => 60000, 'hold_ms' => 100, 'multi' => $i % 3 === 2]);
            $this->await(fn() => (int) $this->client->info('clients')['blocked_clients'] >= $i + 1, 'waiter ' . ($i + 1) . ' blocked');
        }

        $this->redis->stop();
        $this->redis = new RedisServer([], $port);
        $back = microtime(true);
        $this->client = $this->redis->client();

        $last = 0.0;
        foreach ($this->children as $i => [, $pipes]) {
            $w = json_decode(Processes::readLine($pipes, 30), true);
            $this->assertTrue($w['got'] ?? false, "waiter $i gave up: " . json_encode($w));
            $this->assertSame(1, $w['inside'], "waiter $i was not alone inside");
            $this->assertTrue($w['unlocked'], "waiter $i lost the lock");
            $last = max($last, $w['at']);
        }
        // 6 x 100 ms held, plus the reconnects; a lease slept out is 20 s
        $this->assertLessThan(10000, ($last - $back) * 1000, 'a waiter slept out a lease');
    }
}
