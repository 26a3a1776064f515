<?php
/*
 * RLock\Bridge\Laravel (bridge/): RLockLock, an Illuminate\Cache\Lock over rlock, and the
 * RLockStore behind Cache::lock() / Cache::restoreLock(), against a real Redis and real
 * processes: owner-only release, block() woken natively, owners restored in another process.
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

    /** A child: takes 'k' for 60 s and exits without releasing. */
    private const LEAVER = <<<'PHP'
        echo json_encode(['got' => (new RLock\Bridge\Laravel\RLockStore($cfg['opts']))->lock('k', 60)->get()]), "\n";
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
        $theirs->forceRelease();
        $this->assertFalse($store->restoreLock('k', str_repeat('0', 32))->release());
        $this->assertSame(['bridge:k'], $this->client->keys('*'));
        $this->assertTrue($mine->release());
        $this->assertSame([], $this->client->keys('*'));
        $this->assertTrue($theirs->acquire());
        $theirs->forceRelease();
        $this->assertSame([], $this->client->keys('*'));
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

    public function testAProcessThatExitsHoldingReleasesAtOnce(): void
    {
        $c = $this->startChild(self::LEAVER);
        $this->assertTrue($this->report($c)['got']);
        $this->finishChild($c);
        $this->assertTrue($this->store()->lock('k', 10)->acquire());
    }

    public function testCacheRepositoryLocks(): void
    {
        $cache = new Repository($this->store());
        $lock = $cache->lock('k', 10);
        $this->assertInstanceOf(RLockLock::class, $lock);
        $this->assertTrue($lock->get());
        $this->assertTrue($cache->restoreLock('k', $lock->owner())->release());
        $this->assertTrue($cache->put('x', 1, 10));
        $this->assertSame(1, $cache->get('x'));
    }
}
