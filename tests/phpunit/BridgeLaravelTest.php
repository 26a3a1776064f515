<?php
/*
 * RLock\Bridge\Laravel (bridge/): RLockLock, an Illuminate\Cache\Lock over rlock, and the
 * RLockStore behind Cache::lock() / Cache::restoreLock(), against a real Redis and real
 * processes: owner-only release, block() woken natively, owners restored in another process,
 * and Laravel's lifetime: a lock outlives the object and the process that took it, until it
 * is released (by a restored owner too, or forced: forceRelease() wakes the next waiter) or
 * its lease ends.
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit -c tests/phpunit/phpunit.xml --filter BridgeLaravelTest
 */

declare(strict_types=1);

use Illuminate\Cache\Repository;
use Illuminate\Contracts\Cache\LockTimeoutException;
use RLock\Bridge\Laravel\RLockLock;
use RLock\Bridge\Laravel\RLockStore;

final class BridgeLaravelTest extends BridgeTestCase
{
    /** A child: block($cfg['wait'] s) on 'k'; reports whether and when it got it, its owner. */
    private const BLOCKER = <<<'PHP'
        $lock = (new RLock\Bridge\Laravel\RLockStore($cfg['opts']))->lock('k', 10);
        try {
            $got = $lock->block($cfg['wait']);
        } catch (Illuminate\Contracts\Cache\LockTimeoutException) {
            $got = false;
        }
        echo json_encode(['got' => $got, 'at' => microtime(true), 'owner' => $lock->owner()]), "\n";
        if ($got) {
            $lock->release();
        }
        PHP;

    /** A child: restores the lock 'k' of owner $cfg['owner'] and releases it. */
    private const RESTORER = <<<'PHP'
        $lock = (new RLock\Bridge\Laravel\RLockStore($cfg['opts']))->restoreLock('k', $cfg['owner']);
        echo json_encode(['released' => $lock->release()]), "\n";
        PHP;

    /** A child: takes 'k' for 60 s and exits without releasing; reports its owner. */
    private const LEAVER = <<<'PHP'
        $lock = (new RLock\Bridge\Laravel\RLockStore($cfg['opts']))->lock('k', 60);
        echo json_encode(['got' => $lock->get(), 'owner' => $lock->owner()]), "\n";
        PHP;

    private function store(): RLockStore
    {
        return new RLockStore($this->options());
    }

    public function testReleaseIsOwnerOnly(): void
    {
        $store = $this->store();
        $mine = $store->lock('k', 10);
        $theirs = $store->lock('k', 10);
        $this->assertTrue($mine->acquire());
        $this->assertMatchesRegularExpression('/^[0-9a-f]{32}$/', $mine->owner(), "owner() is rlock's token");
        $this->assertFalse($theirs->acquire());
        $this->assertFalse($theirs->release());
        $this->assertFalse($store->restoreLock('k', str_repeat('0', 32))->release());
        // an empty owner (a lock that was never acquired, its owner lost on the way) is no owner
        $this->assertFalse($store->restoreLock('k', '')->release());
        $this->assertSame(['bridge:k'], $this->client->keys('*'));
        $this->assertTrue($mine->release());
        $this->assertSame([], $this->client->keys('*'));
    }

    public function testForceReleaseReleasesWhoeverHolds(): void
    {
        $store = $this->store();
        $mine = $store->lock('k', 10);
        $this->assertTrue($mine->acquire());
        // another Lock object's forceRelease(), as Laravel's RedisLock deletes the key
        $store->lock('k', 10)->forceRelease();
        $this->assertSame([], $this->client->keys('*'));
        $this->assertFalse($mine->release(), 'mine was released by force');
        // our own, and a lock nobody holds
        $this->assertTrue($mine->acquire());
        $mine->forceRelease();
        $store->lock('k')->forceRelease();
        $this->assertSame([], $this->client->keys('*'));
        $this->assertTrue($store->lock('k', 10)->acquire());
    }

    public function testForceReleaseOfAnotherProcesssLockWakesItsWaiter(): void
    {
        $c = $this->startChild(self::LEAVER);
        $this->assertTrue($this->report($c)['got']);
        $this->finishChild($c);
        $w = $this->startChild(self::BLOCKER, ['wait' => 10]);
        $this->awaitBlocked(1);
        $t0 = microtime(true);
        // what Laravel's scheduler and unique jobs do: a fresh lock of the name, forced
        $this->store()->lock('k')->forceRelease();
        $r = $this->report($w);
        $this->assertTrue($r['got']);
        $this->assertLessThan(self::HANDOVER_MS, ($r['at'] - $t0) * 1000, 'the waiter was not woken by the force');
        $this->finishChild($w);
    }

    public function testTwoLocksOfOneNameInOneProcessAreTwoOwners(): void
    {
        // ShouldBeUnique, WithoutOverlapping: a temporary Lock's get(), then another's
        $cache = new Repository($this->store());
        $this->assertTrue($cache->lock('x', 600)->get());
        $this->assertFalse($cache->lock('x', 600)->get(), 'the first temporary still holds it');
        $this->assertGreaterThan(590000, $this->client->pttl('bridge:x'));
    }

    public function testZeroSecondsIsUntilReleased(): void
    {
        $this->assertTrue($this->store()->lock('forever', 0)->get());
        $this->assertGreaterThan(24 * 86400 * 1000, $this->client->pttl('bridge:forever'), 'the longest lease rlock takes');
        $this->assertTrue((new RLockStore($this->options(['ttl' => 5000])))->lock('short', 0)->get());
        $pttl = $this->client->pttl('bridge:short');
        $this->assertTrue($pttl > 4000 && $pttl <= 5000, "the store's ttl: pttl $pttl");
    }

    /**
     * A lease longer than rlock takes (24.8 days) is refused before anything is taken, in
     * seconds: it was wrapped (PHP_INT_MAX seconds became a 100 ms lease: a second get()
     * 300 ms later succeeded) or refused in RLock's milliseconds (30 days).
     */
    public function testLeaseBeyondRlocksLongestIsRefusedNotWrapped(): void
    {
        foreach ([PHP_INT_MAX, 86400 * 30, 1e16] as $seconds) {
            try {
                $this->store()->lock('huge', $seconds)->get();
                $this->fail("$seconds seconds: taken");
            } catch (InvalidArgumentException $e) {
                $this->assertStringContainsString('at most 2147483 seconds', $e->getMessage());
            }
            $this->assertSame(0, $this->client->exists('bridge:huge'), "$seconds seconds: nothing taken");
        }
        $this->assertTrue($this->store()->lock('huge', 2147483)->get(), 'the longest is taken');
        $this->assertGreaterThan(2147000000, $this->client->pttl('bridge:huge'));
    }

    public function testSecondsAreTheLease(): void
    {
        $lock = $this->store()->lock('k', 7);
        $this->assertTrue($lock->get());
        $pttl = $this->client->pttl('bridge:k');
        $this->assertTrue($pttl > 6000 && $pttl <= 7000, "pttl $pttl");
        $this->assertSame('done', $this->store()->lock('j', 7)->get(fn() => 'done'));
        $this->assertSame(['bridge:k'], $this->client->keys('*'), 'get($callback) released its lock');
    }

    public function testALeaseUnder100MsIsHeld100Ms(): void
    {
        // rlock refuses a ttl under 100 ms (seconds mistaken for ms); seconds are no mistake
        $lock = $this->store()->lock('k', 0.05);
        $this->assertTrue($lock->get());
        $pttl = $this->client->pttl('bridge:k');
        $this->assertTrue($pttl > 0 && $pttl <= 100, "pttl $pttl");
        $this->assertTrue($lock->release());
    }

    public function testBlockIsWokenByTheReleaseInAnotherProcess(): void
    {
        $lock = $this->store()->lock('k', 10);
        $this->assertTrue($lock->acquire());
        $w = $this->startChild(self::BLOCKER, ['wait' => 10]);
        // waiting natively: blocked in Redis, not sleeping 250 ms between tries
        $this->awaitBlocked(1);
        $t0 = microtime(true);
        $this->assertTrue($lock->release());
        $r = $this->report($w);
        $this->assertTrue($r['got']);
        $this->assertNotSame($lock->owner(), $r['owner']);
        $this->assertLessThan(self::HANDOVER_MS, ($r['at'] - $t0) * 1000, 'block() returned late');
        $this->finishChild($w);
    }

    public function testBlockTimesOutWithLockTimeoutException(): void
    {
        $holder = $this->store()->lock('k', 10);
        $this->assertTrue($holder->acquire());
        $t0 = microtime(true);
        try {
            $this->store()->lock('k', 10)->block(0.2);
            $this->fail('block() did not time out');
        } catch (LockTimeoutException) {
        }
        $this->assertLessThan(200 + self::HANDOVER_MS, (microtime(true) - $t0) * 1000);
        // and block() with a callback releases after it
        $this->assertSame('ran', $this->store()->lock('j', 10)->block(1, fn() => 'ran'));
        $this->assertSame(['bridge:k'], $this->client->keys('*'));
    }

    public function testRestoredOwnerReleasesInAnotherProcess(): void
    {
        $lock = $this->store()->lock('k', 10);
        $this->assertTrue($lock->acquire());
        $wrong = $this->startChild(self::RESTORER, ['owner' => 'not-the-owner']);
        $this->assertFalse($this->report($wrong)['released']);
        $this->finishChild($wrong);
        $this->assertSame(['bridge:k'], $this->client->keys('*'));
        $r = $this->startChild(self::RESTORER, ['owner' => $lock->owner()]);
        $this->assertTrue($this->report($r)['released']);
        $this->finishChild($r);
        $this->assertSame([], $this->client->keys('*'));
        $this->assertFalse($lock->release(), 'the lock was released by the restored owner');
    }

    public function testALockOutlivesTheProcessThatTookIt(): void
    {
        $c = $this->startChild(self::LEAVER);
        $owner = $this->report($c)['owner'];
        $this->finishChild($c);
        $this->assertFalse($this->store()->lock('k', 10)->acquire(), 'held past the process');
        $this->assertGreaterThan(55000, $this->client->pttl('bridge:k'));
        $this->assertTrue($this->store()->restoreLock('k', $owner)->release());
        $this->assertTrue($this->store()->lock('k', 10)->acquire());
    }

    public function testCacheRepositoryLocks(): void
    {
        $cache = new Repository($this->store());
        $lock = $cache->lock('k', 10);
        $this->assertInstanceOf(RLockLock::class, $lock);
        $this->assertTrue($lock->get());
        // a restored owner is the owner (Laravel asks getCurrentOwner())
        $restored = $cache->restoreLock('k', $lock->owner());
        $owned = new ReflectionMethod($restored, 'isOwnedByCurrentProcess');
        $owned->setAccessible(true);
        $this->assertTrue($owned->invoke($restored));
        $this->assertFalse($owned->invoke($cache->restoreLock('k', 'another')));
        $this->assertTrue($restored->release());
        $this->assertFalse($owned->invoke($restored));
        $this->assertTrue($cache->put('x', 1, 10));
        $this->assertSame(1, $cache->get('x'));
    }
}
