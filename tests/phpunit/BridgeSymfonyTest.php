<?php
/*
 * RLock\Bridge\Symfony\RLockStore (bridge/): what symfony/lock's own store suite asks of a
 * blocking, expiring store, and a Lock from LockFactory over it keeping rlock's guarantees
 * across processes, with symfony's lifetime: a Lock lives until it is released (by symfony's
 * destructor with autoRelease) or its lease ends, and its Key, serialized, is its owner in
 * another process.
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit -c tests/phpunit/phpunit.xml --filter BridgeSymfonyTest
 */

declare(strict_types=1);

use RLock\Bridge\Symfony\RLockStore;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Exception\LockExpiredException;
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\LockFactory;

final class BridgeSymfonyTest extends BridgeTestCase
{
    /** A child: a Lock on 'k' from LockFactory, acquired blocking; reports when, then exits. */
    private const WAITER = <<<'PHP'
        $lock = (new Symfony\Component\Lock\LockFactory(new RLock\Bridge\Symfony\RLockStore($cfg['opts'])))->createLock('k');
        $got = $lock->acquire(true);
        echo json_encode(['got' => $got, 'at' => microtime(true), 'held' => $lock->isAcquired()]), "\n";
        $lock->release();
        PHP;

    /** A child: acquires 'k' (autoRelease: $cfg['auto']) and reports; then exits without
     * releasing, or is killed. */
    private const HOLDER = <<<'PHP'
        $lock = (new Symfony\Component\Lock\LockFactory(new RLock\Bridge\Symfony\RLockStore($cfg['opts'])))
            ->createLock('k', null, $cfg['auto'] ?? false);
        echo json_encode(['got' => $lock->acquire()]), "\n";
        if ($cfg['stay']) {
            sleep(60);
        }
        PHP;

    /** A child: the Lock of a serialized Key ($cfg['key']): whether it holds, a refresh, and
     * whether another Key of the resource gets in, then its release. */
    private const KEY_USER = <<<'PHP'
        $factory = new Symfony\Component\Lock\LockFactory(new RLock\Bridge\Symfony\RLockStore($cfg['opts']));
        $lock = $factory->createLockFromKey(unserialize(base64_decode($cfg['key'])), 300.0, false);
        $held = $lock->isAcquired();
        $lock->refresh(200.0);
        $other = $factory->createLock('k')->acquire();
        $lock->release();
        echo json_encode(['held' => $held, 'other' => $other, 'after' => $lock->isAcquired()]), "\n";
        PHP;

    private function store(array $more = []): RLockStore
    {
        return new RLockStore($this->options($more));
    }

    public function testSaveExistsDelete(): void
    {
        $store = $this->store();
        $key = new Key('k');
        $this->assertFalse($store->exists($key));
        $store->save($key);
        $this->assertTrue($store->exists($key));
        $this->assertSame(['bridge:k'], $this->client->keys('*'));
        $store->delete($key);
        $this->assertFalse($store->exists($key));
        $this->assertSame([], $this->client->keys('*'));
    }

    public function testResourcesAreIndependent(): void
    {
        $store = $this->store();
        [$a, $b] = [new Key('a'), new Key('b')];
        $store->save($a);
        $this->assertFalse($store->exists($b));
        $store->delete($b);
        $this->assertTrue($store->exists($a));
        $store->save($b);
        $store->delete($a);
        $this->assertFalse($store->exists($a));
        $this->assertTrue($store->exists($b));
    }

    public function testTwoKeysOfOneResourceAreTwoOwners(): void
    {
        $store = $this->store();
        [$k1, $k2] = [new Key('k'), new Key('k')];
        $store->save($k1);
        $this->assertFalse($store->exists($k2));
        try {
            $store->save($k2);
            $this->fail('a second key of the resource was saved while the first holds it');
        } catch (LockConflictedException) {
        }
        // neither the failed save nor a delete by the other key touches the holder
        $store->delete($k2);
        $this->assertTrue($store->exists($k1));
        $this->assertFalse($store->exists($k2));
        $store->delete($k1);
        $store->save($k2);
        $this->assertFalse($store->exists($k1));
        $this->assertTrue($store->exists($k2));
    }

    public function testSavingTwiceRenewsTheLease(): void
    {
        $store = $this->store(['ttl' => 5000]);
        $key = new Key('k');
        $store->save($key);
        $this->client->pExpire('bridge:k', 100);
        $store->save($key);
        $this->assertGreaterThan(1000, $this->client->pttl('bridge:k'));
        $this->assertTrue($store->exists($key));
    }

    public function testPutOffExpirationSetsTheLease(): void
    {
        $store = $this->store();
        $key = new Key('k');
        $store->save($key);
        // (2 s: the checks that follow take round trips, a loaded machine's)
        $store->putOffExpiration($key, 2.0);
        $this->assertTrue($store->exists($key));
        $this->assertLessThanOrEqual(2000, $this->client->pttl('bridge:k'));
        $remaining = $key->getRemainingLifetime();
        $this->assertTrue($remaining > 0 && $remaining <= 2.0, "remaining lifetime $remaining");
        $this->await(fn() => !$store->exists($key), 'the lease ran out', 10);
        // and another owner may have it then
        $store->save(new Key('k'));
    }

    /**
     * A ttl longer than rlock takes (24.8 days) fails the acquire and leaves nothing held: it
     * was wrapped (1e16 seconds became a 100 ms lease, another acquire() succeeding 300 ms
     * later), or refused by RLock::extend() after the save, the key held for the store's ttl.
     */
    public function testTtlBeyondRlocksLongestLeavesNothingHeld(): void
    {
        $factory = new Symfony\Component\Lock\LockFactory($this->store());
        foreach ([1e16, 86400.0 * 30, INF] as $ttl) {
            try {
                $factory->createLock('huge', $ttl, false)->acquire();
                $this->fail("$ttl seconds: acquired");
            } catch (Symfony\Component\Lock\Exception\LockAcquiringException $e) {
                for ($cause = $e; $cause && !$cause instanceof Symfony\Component\Lock\Exception\InvalidTtlException;
                    $cause = $cause->getPrevious());
                $this->assertNotNull($cause, "$ttl seconds: the store's InvalidTtlException");
                $this->assertStringContainsString('at most 2147483 seconds', $cause->getMessage());
            }
            $this->assertSame(0, $this->client->exists('bridge:huge'), "$ttl seconds: nothing held");
        }
        $this->assertTrue($factory->createLock('huge', 2147483.0, false)->acquire(), 'the longest is taken');
        $this->assertGreaterThan(2147000000, $this->client->pttl('bridge:huge'));
    }

    public function testTheStoresTtlIsCheckedAsTheExtensionChecksItNotCast(): void
    {
        // (int) "300s" was a lease of 300 ms, (int) 1e30 one of whatever it wrapped to
        foreach (['300s', 1e30] as $ttl) {
            try {
                $this->store(['ttl' => $ttl]);
                $this->fail(var_export($ttl, true) . ' taken for a lease');
            } catch (TypeError $e) {
                $this->assertStringContainsString('option "ttl" must be of type int, ' . get_debug_type($ttl) . ' given', $e->getMessage());
            }
        }
        // what the extension takes for an int is the lease: a numeric string in milliseconds
        $store = $this->store(['ttl' => '5000']);
        $store->save($key = new Symfony\Component\Lock\Key('k'));
        $this->assertEqualsWithDelta(5000, $this->client->pttl('bridge:k'), 1000);
        $store->delete($key);
    }

    /** Leases set so far: PEXPIRE calls, which only rlock's extend script sends. */
    private function leasesSet(): int
    {
        $stats = $this->client->info('commandstats')['cmdstat_pexpire'] ?? '';
        return preg_match('/calls=(\d+)/', $stats, $m) ? (int) $m[1] : 0;
    }

    public function testLockAcquireRefreshesWithoutAskingRedisAgain(): void
    {
        // Lock::acquire() saves, then refreshes to the Lock's ttl: the lease the save took
        // is that lease, so the refresh costs no round trip inside the critical section
        $lock = (new LockFactory($this->store(['ttl' => 5000])))->createLock('k', 5.0);
        $before = $this->leasesSet();
        $this->assertTrue($lock->acquire());
        $this->assertSame($before, $this->leasesSet(), 'leases set by acquire() after its SET');
        $this->assertGreaterThan(4000, $this->client->pttl('bridge:k'));
        // a refresh to a longer lease, or a shorter one, asks Redis
        $lock->refresh(10.0);
        $this->assertSame($before + 1, $this->leasesSet(), 'leases set by refresh(10)');
        $this->assertGreaterThan(5000, $this->client->pttl('bridge:k'));
        $lock->refresh(1.0);
        $this->assertLessThanOrEqual(1000, $this->client->pttl('bridge:k'));
        $lock->release();
        $this->assertSame(0, $this->client->exists('bridge:k'));
    }

    /** A child: whether a Lock of another Key of 'k' gets in. */
    private const TAKER = <<<'PHP'
        $other = (new Symfony\Component\Lock\LockFactory(new RLock\Bridge\Symfony\RLockStore($cfg['opts'])))->createLock('k', 10.0);
        echo json_encode(['got' => $other->acquire()]), "\n";
        PHP;

    public function testARefreshAfterAShorterOneAsksRedisAndKeepsOthersOut(): void
    {
        // the store compared a refresh with the lease its save took, never one a refresh set:
        // refresh(1.0) then refresh(10.0) skipped the round trip, Redis held 1 s while the Key
        // claimed 10 s, and another process got in while isExpired() was false
        $lock = (new LockFactory($this->store(['ttl' => 10000])))->createLock('k', 10.0);
        $this->assertTrue($lock->acquire());
        $lock->refresh(1.0);
        $lock->refresh(10.0);
        $pttl = $this->client->pttl('bridge:k');
        $this->assertGreaterThan(5000, $pttl);
        // what the Key claims is what Redis holds, or less (1 s of slack for a loaded machine)
        $this->assertLessThanOrEqual($pttl + 1000, $lock->getRemainingLifetime() * 1000);
        // a refresh 100 ms in (1% of a 20 s lease: no round trip needed) claims no more than Redis has
        $lock2 = (new LockFactory($this->store(['ttl' => 20000])))->createLock('k2', 20.0);
        $this->assertTrue($lock2->acquire());
        usleep(100000);
        $lock2->refresh();
        $this->assertLessThanOrEqual($this->client->pttl('bridge:k2') + 1, $lock2->getRemainingLifetime() * 1000);
        // while the Key says it holds, nobody else gets in
        $c = $this->startChild(self::TAKER);
        $r = $this->report($c);
        $this->finishChild($c);
        $this->assertFalse($lock->isExpired());
        $this->assertSame(['got' => false], $r);
        $lock->release();
        $lock2->release();
    }

    public function testPutOffExpirationPastTheLifetimeGivesTheLockBack(): void
    {
        $store = $this->store();
        $key = new Key('k');
        $store->save($key);
        try {
            $store->putOffExpiration($key, 0.000001);
            $this->fail('no LockExpiredException');
        } catch (LockExpiredException) {
        }
        $this->assertFalse($store->exists($key));
        $this->assertSame([], $this->client->keys('*'));
    }

    public function testPutOffExpirationOfAKeyThatDoesNotHoldConflicts(): void
    {
        $store = $this->store();
        $store->save(new Key('k'));
        $this->expectException(LockConflictedException::class);
        $store->putOffExpiration(new Key('k'), 10);
    }

    public function testASerializedKeyIsItsOwnerInAnotherProcess(): void
    {
        $key = new Key('k');
        $lock = (new LockFactory($this->store()))->createLockFromKey($key, 300.0, false);
        $this->assertTrue($lock->acquire());
        $c = $this->startChild(self::KEY_USER, ['key' => base64_encode(serialize($key))]);
        $r = $this->report($c);
        $this->finishChild($c);
        $this->assertSame(['held' => true, 'other' => false, 'after' => false], $r);
        $this->assertSame([], $this->client->keys('*'), 'released by the other process');
        $this->assertFalse($lock->isAcquired());
        // a Key whose owner no longer holds it is no owner
        $this->assertTrue($lock->acquire());
        $stale = serialize($key);
        $lock->release();
        $this->assertFalse((new LockFactory($this->store()))->createLockFromKey(unserialize($stale), 300.0, false)->isAcquired());
    }

    public function testALockWithoutAutoReleaseOutlivesItsObject(): void
    {
        $factory = new LockFactory($this->store());
        $lock = $factory->createLock('pdf:9', 300.0, false);
        $this->assertTrue($lock->acquire());
        unset($lock);
        $this->assertGreaterThan(290000, $this->client->pttl('bridge:pdf:9'), "kept, as symfony's RedisStore keeps it");
        $this->assertFalse($factory->createLock('pdf:9')->acquire());
        // with autoRelease, symfony's destructor releases it
        $lock = $factory->createLock('pdf:10', 300.0);
        $this->assertTrue($lock->acquire());
        unset($lock);
        $this->assertSame(0, $this->client->exists('bridge:pdf:10'));
    }

    public function testTheStoresTtlIsTheLeaseOfALockWithoutOne(): void
    {
        $factory = new LockFactory($this->store(['ttl' => 30000]));
        // the Lock's ttl governs: 300 s by default, whatever the store's
        $this->assertTrue(($a = $factory->createLock('a'))->acquire());
        $this->assertGreaterThan(290000, $this->client->pttl('bridge:a'));
        $this->assertTrue(($b = $factory->createLock('b', 60.0))->acquire());
        $pttl = $this->client->pttl('bridge:b');
        $this->assertTrue($pttl > 50000 && $pttl <= 60000, "pttl $pttl");
        // a Lock with a null ttl keeps the save's: the store's, else RedisStore's 300 s
        $this->assertTrue(($c = $factory->createLock('c', null))->acquire());
        $pttl = $this->client->pttl('bridge:c');
        $this->assertTrue($pttl > 25000 && $pttl <= 30000, "pttl $pttl");
        $this->assertTrue(($d = (new LockFactory($this->store()))->createLock('d', null))->acquire());
        $this->assertGreaterThan(290000, $this->client->pttl('bridge:d'));
    }

    public function testLockReleaseIsOwnerOnly(): void
    {
        $factory = new LockFactory($this->store());
        $mine = $factory->createLock('k');
        $theirs = $factory->createLock('k');
        $this->assertTrue($mine->acquire());
        $this->assertFalse($theirs->acquire());
        $theirs->release();
        $this->assertTrue($mine->isAcquired());
        $this->assertSame(['bridge:k'], $this->client->keys('*'));
        $mine->release();
        $this->assertTrue($theirs->acquire());
    }

    public function testBlockedWaiterInAnotherProcessIsWokenByTheRelease(): void
    {
        $lock = (new LockFactory($this->store()))->createLock('k');
        $this->assertTrue($lock->acquire());
        $w = $this->startChild(self::WAITER);
        // waiting natively: blocked in Redis, not polling
        $this->awaitBlocked(1);
        $t0 = microtime(true);
        $lock->release();
        $r = $this->report($w);
        $this->assertTrue($r['got'] && $r['held']);
        $this->assertLessThan(self::HANDOVER_MS, ($r['at'] - $t0) * 1000, 'hand-over took too long');
        $this->finishChild($w);
        $this->assertFalse($lock->isAcquired());
    }

    public function testALockWithoutAutoReleaseOutlivesItsProcess(): void
    {
        $h = $this->startChild(self::HOLDER, ['stay' => false, 'opts' => $this->options(['ttl' => 60000])]);
        $this->assertTrue($this->report($h)['got']);
        $this->finishChild($h);
        $this->assertGreaterThan(55000, $this->client->pttl('bridge:k'));
        $this->assertFalse((new LockFactory($this->store()))->createLock('k')->acquire());
    }

    public function testALockWithAutoReleaseIsReleasedBySymfonyWhenItsProcessEnds(): void
    {
        $h = $this->startChild(self::HOLDER, ['stay' => false, 'auto' => true, 'opts' => $this->options(['ttl' => 60000])]);
        $this->assertTrue($this->report($h)['got']);
        $this->finishChild($h);
        $this->assertTrue((new LockFactory($this->store()))->createLock('k')->acquire());
    }

    public function testAKilledHolderBlocksAWaiterAtMostItsTtl(): void
    {
        $h = $this->startChild(self::HOLDER, ['stay' => true, 'opts' => $this->options(['ttl' => 300])]);
        $this->assertTrue($this->report($h)['got']);
        $this->killChild($h);
        $t0 = microtime(true);
        $lock = (new LockFactory($this->store()))->createLock('k');
        $this->assertTrue($lock->acquire(true));
        $this->assertLessThan(300 + self::HANDOVER_MS, (microtime(true) - $t0) * 1000);
    }
}
