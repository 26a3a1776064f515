<?php
/*
 * RLock\Bridge\Testing (bridge/): the in-memory test doubles of RLock, RReadWriteLock and
 * RSemaphore keep their semantics without Redis: exclusion between objects of one key,
 * reentrancy within one execution context (a Fiber is another), leases by the clock (lost
 * once another took the key), fencing tokens, restore() and forceUnlock(), waits that move
 * the clock instead of sleeping, synchronized() and its exceptions, options checked as the
 * extension checks them. BridgePackageTest runs them without the extension.
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit -c tests/phpunit/phpunit.xml --filter BridgeInMemoryTest
 */

declare(strict_types=1);

use PHPUnit\Framework\TestCase;
use RLock\Bridge\Testing\InMemoryBackend;
use RLock\Bridge\Testing\InMemoryLock;
use RLock\Bridge\Testing\InMemoryRateLimiter;
use RLock\Bridge\Testing\InMemoryReadWriteLock;
use RLock\Bridge\Testing\InMemorySemaphore;

final class BridgeInMemoryTest extends TestCase
{
    protected function setUp(): void
    {
        InMemoryBackend::reset();
    }

    public function testTheyImplementTheExtensionsInterfaces(): void
    {
        $this->assertInstanceOf(RLock\LockInterface::class, new InMemoryLock('k'));
        $this->assertInstanceOf(RLock\SemaphoreInterface::class, new InMemorySemaphore('s', 2));
        $rw = new InMemoryReadWriteLock('rw');
        $this->assertInstanceOf(RLock\ReadWriteLockInterface::class, $rw);
        $this->assertInstanceOf(RLock\LockInterface::class, $rw->readLock());
        $this->assertSame($rw->readLock(), $rw->readLock());
    }

    public function testTheRateLimiterDoubleCountsAsRRateLimiterDoes(): void
    {
        // 3 per 3 s, 2 at once: a permit every second (time enough between two lines, loaded)
        $a = new InMemoryRateLimiter('api', 3, 3000, ['burst' => 2]);
        $b = new InMemoryRateLimiter('api', 3, 3000, ['burst' => 2]);
        $this->assertInstanceOf(RLock\RateLimiterInterface::class, $a);
        $this->assertSame(2, $a->remaining());
        // the double's clock is the real one (moved on by acquire() and advance()): time passes
        // between two lines, and a permit due in 1000 ms is then due sooner, by as much
        $clock = fn () => InMemoryBackend::shared()->now();
        $t1 = $clock();
        $this->assertTrue($a->tryAcquire(2));
        $this->assertFalse($b->tryAcquire());
        $after = $b->retryAfter();
        $this->assertThat($after, $this->logicalAnd($this->lessThanOrEqual(1000), $this->greaterThanOrEqual(1000 - ($clock() - $t1))));
        $this->assertSame(0, $b->remaining());
        // acquire() waits by moving the clock on to when the permit is due (the real time the
        // calls take added)
        $t = $clock();
        $wall = hrtime(true);
        $this->assertTrue($b->acquire(1, 1000));
        $moved = $clock() - $t;
        $took = intdiv(hrtime(true) - $wall, 1000000) + 1;
        $this->assertThat($moved, $this->logicalAnd($this->lessThanOrEqual(1000 + $took), $this->greaterThanOrEqual(1000 - ($t - $t1))));
        // the next permit is due 1000 ms after that one was (at least $t + $moved - $took)
        $this->assertFalse($b->acquire(1, 500), 'not due within the wait');
        $after = $b->retryAfter();
        $this->assertThat($after, $this->logicalAnd($this->lessThanOrEqual(1000),
            $this->greaterThanOrEqual(1000 - ($clock() - ($t + $moved - $took)))));
        InMemoryBackend::shared()->advance(3000);
        $this->assertSame(2, $a->remaining());
        // all or none
        $global = new InMemoryRateLimiter('all', 2, 60000);
        $buyer = new InMemoryRateLimiter('buyer:1', 1, 60000);
        $this->assertTrue(InMemoryRateLimiter::all([$buyer, $global]));
        $this->assertFalse(InMemoryRateLimiter::all([$buyer, $global]));
        $this->assertSame(1, $global->remaining(), 'a refusal took nothing');
        $a->reset();
        $this->assertSame(2, $b->remaining());
        try {
            $a->tryAcquire(3);
            $this->fail('more than the burst');
        } catch (ValueError $e) {
            $this->assertStringContainsString('must be between 1 and 2', $e->getMessage());
        }
        $this->expectException(ValueError::class);
        new InMemoryRateLimiter('x', 1, 1000, ['servers' => ['redis://a', 'redis://b', 'redis://c']]);
    }

    public function testObjectsOfOneKeyExcludeEachOtherAsTwoOwners(): void
    {
        $a = new InMemoryLock('k', ['reentrant' => false, 'ttl' => 5000]);
        $b = new InMemoryLock('k', ['reentrant' => false]);
        $this->assertTrue($a->tryLock());
        $this->assertMatchesRegularExpression('/^[0-9a-f]{32}$/', $a->token());
        $this->assertFalse($b->tryLock());
        $this->assertFalse($b->unlock());
        $this->assertTrue($b->isLocked());
        $this->assertFalse($b->isAcquired());
        $this->assertTrue($a->isAcquired());
        $this->assertSame('rlock:k', $a->key());
        $ttl = $a->ttl();
        $this->assertTrue($ttl > 4900 && $ttl <= 5000, "ttl $ttl");
        $this->assertTrue($a->unlock());
        $this->assertSame(-2, $a->ttl());
        $this->assertNull($a->token());
        $this->assertTrue($b->tryLock());
        $this->assertTrue((new InMemoryLock('other'))->tryLock(), 'another key is free');
        $this->assertFalse((new InMemoryLock('k', ['reentrant' => false], new InMemoryBackend()))->isLocked(), 'a backend of its own');
    }

    public function testReentrantWithinOneContextReleasedAtTheOutermostUnlock(): void
    {
        $outer = new InMemoryLock('k');
        $inner = new InMemoryLock('k');
        $this->assertTrue($outer->lock());
        $this->assertTrue($inner->lock());
        $this->assertTrue($outer->lock());
        $this->assertSame($outer->token(), $inner->token());
        $this->assertTrue($inner->unlock());
        $this->assertTrue($outer->unlock());
        $this->assertTrue($outer->isLocked(), 'one hold left');
        $this->assertTrue($outer->unlock());
        $this->assertFalse($outer->isLocked());
        // the same object without reentrancy: a second hold is a second owner
        $once = new InMemoryLock('j', ['reentrant' => false]);
        $this->assertTrue($once->tryLock());
        $this->assertFalse($once->tryLock());
        // fencing re-enters a fenced hold with its token, and refuses one that has none, as
        // the extension does
        $fenced = new InMemoryLock('f', ['fencing' => true]);
        $this->assertTrue($fenced->lock());
        $again = new InMemoryLock('f', ['fencing' => true]);
        $this->assertTrue($again->lock());
        $this->assertSame($fenced->fencingToken(), $again->fencingToken());
        $plain = new InMemoryLock('p');
        $this->assertTrue($plain->lock());
        try {
            (new InMemoryLock('p', ['fencing' => true]))->lock();
            $this->fail('no RLockException');
        } catch (RLockException $e) {
            $this->assertStringStartsWith('Cannot re-enter the lock "rlock:p" with "fencing"', $e->getMessage());
        }
        $this->assertTrue($plain->unlock());
        $this->assertFalse($plain->isLocked());
    }

    public function testAFiberIsAnotherContextAndItsHoldsEndWithIt(): void
    {
        $main = new InMemoryLock('k');
        $this->assertTrue($main->lock());
        $fiber = new Fiber(function (): bool {
            $l = new InMemoryLock('k');
            return $l->tryLock();
        });
        $fiber->start();
        $this->assertFalse($fiber->getReturn(), 'a Fiber waits like another process');
        $this->assertTrue($main->unlock());
        $holder = new Fiber(function (): void {
            $l = new InMemoryLock('k');
            $l->tryLock();
            Fiber::suspend();
        });
        $holder->start();
        $this->assertFalse((new InMemoryLock('k'))->tryLock(), 'the suspended Fiber holds it');
        $holder->resume();
        $this->assertTrue($holder->isTerminated());
        $this->assertTrue((new InMemoryLock('k'))->tryLock(), 'the Fiber ended: its hold with it');
    }

    public function testLeasesEndByTheClockAndTheHolderFindsItLost(): void
    {
        $backend = InMemoryBackend::shared();
        $a = new InMemoryLock('k', ['ttl' => 1000, 'reentrant' => false, 'fencing' => true]);
        $b = new InMemoryLock('k', ['ttl' => 1000, 'reentrant' => false, 'fencing' => true]);
        $this->assertTrue($a->tryLock());
        $this->assertTrue($a->extend(3000));
        $backend->advance(2000);
        $this->assertTrue($a->isAcquired());
        $backend->advance(1000);
        $this->assertFalse($a->isAcquired());
        $this->assertFalse($a->isLocked());
        $this->assertTrue($b->tryLock());
        $this->assertGreaterThan($a->fencingToken(), $b->fencingToken());
        $this->assertFalse($a->unlock());
        $this->assertTrue($a->lost());
        $this->assertFalse($a->extend());
        $this->assertNull($a->fencingToken());
    }

    public function testAWaitMovesTheClockInsteadOfSleeping(): void
    {
        $backend = InMemoryBackend::shared();
        $holder = new InMemoryLock('k', ['ttl' => 60000, 'reentrant' => false]);
        $this->assertTrue($holder->lock());
        $t0 = microtime(true);
        $before = $backend->now();
        $waiter = new InMemoryLock('k', ['reentrant' => false, 'wait' => 10000]);
        $this->assertFalse($waiter->lock(), 'the lease outlasts the wait');
        $this->assertGreaterThanOrEqual(10000, $backend->now() - $before);
        $this->assertTrue($waiter->lock(60000), 'taken when the lease ends within the wait');
        $this->assertFalse($holder->isAcquired());
        $this->assertLessThan(1.0, microtime(true) - $t0, 'no sleep');
    }

    public function testForceUnlockAndRestore(): void
    {
        $a = new InMemoryLock('k', ['reentrant' => false]);
        $this->assertTrue($a->tryLock());
        $token = $a->token();
        $restored = new InMemoryLock('k', ['reentrant' => false]);
        $this->assertFalse($restored->restore(str_repeat('0', 32)));
        $this->assertTrue($restored->restore($token));
        $this->assertSame($token, $restored->token());
        $this->assertTrue($restored->isAcquired());
        try {
            $restored->restore($token);
            $this->fail('restore() of a holding object');
        } catch (\RLockException $e) {
            $this->assertStringContainsString('holds the lock already', $e->getMessage());
        }
        $this->assertTrue($restored->unlock());
        $this->assertFalse($a->unlock(), 'released by the restored owner');
        $this->assertTrue($a->tryLock());
        $this->assertTrue((new InMemoryLock('k'))->forceUnlock());
        $this->assertFalse((new InMemoryLock('k'))->forceUnlock());
        $this->assertFalse($a->unlock());
        $this->assertTrue($a->lost());
    }

    public function testSynchronized(): void
    {
        $l = new InMemoryLock('k', ['reentrant' => false]);
        $this->assertSame('done', $l->synchronized(fn (InMemoryLock $self): string => $self === $l ? 'done' : 'other'));
        $this->assertFalse($l->isLocked());
        try {
            $l->synchronized(fn () => throw new DomainException('inside'));
            $this->fail('the exception was lost');
        } catch (DomainException) {
            $this->assertFalse($l->isLocked());
        }
        try {
            $l->synchronized(function () {
                (new InMemoryLock('k'))->forceUnlock();
                return 42;
            });
            $this->fail('no RLockLostException');
        } catch (RLockLostException $e) {
            $this->assertSame(42, $e->getResult());
            $this->assertSame('The lock "rlock:k" expired before it was released', $e->getMessage());
        }
        $this->assertTrue((new InMemoryLock('k', ['reentrant' => false]))->tryLock());
        $this->expectException(RLockTimeoutException::class);
        $this->expectExceptionMessage('Could not acquire the lock "rlock:k" within 100 ms');
        $l->synchronized(fn () => 'never', 100);
    }

    public function testReadWriteLock(): void
    {
        $o = ['reentrant' => false, 'ttl' => 1000];
        [$r1, $r2, $w] = [new InMemoryReadWriteLock('rw', $o), new InMemoryReadWriteLock('rw', $o), new InMemoryReadWriteLock('rw', $o)];
        $this->assertTrue($r1->readLock()->tryLock());
        $this->assertTrue($r2->readLock()->tryLock());
        $this->assertFalse($w->writeLock()->tryLock());
        $this->assertTrue($r1->readLock()->unlock());
        $this->assertTrue($r2->readLock()->unlock());
        $this->assertTrue($w->writeLock()->tryLock());
        $this->assertFalse($r1->readLock()->tryLock());
        // as the extension's: a side's key() is the lock's own, its messages name the side
        $this->assertSame('rlock:rw', $r1->readLock()->key());
        $this->assertSame('rlock:rw', $w->writeLock()->key());
        try {
            $r1->readLock()->synchronized(fn () => 'never', 0);
            $this->fail('no RLockTimeoutException');
        } catch (RLockTimeoutException $e) {
            $this->assertSame('Could not acquire the read lock "rlock:rw" within 0 ms', $e->getMessage());
        }
        $this->assertTrue($w->writeLock()->unlock());
        // a context that writes may read (reentrant); one that reads is refused the write side
        // at once, as by the extension (it would wait for itself)
        $mine = new InMemoryReadWriteLock('own');
        $this->assertTrue($mine->writeLock()->tryLock());
        $this->assertTrue($mine->readLock()->tryLock());
        $this->assertTrue($mine->writeLock()->unlock());
        try {
            $mine->writeLock()->lock(1000);
            $this->fail('no RLockException');
        } catch (RLockException $e) {
            $this->assertSame('Cannot lock the write lock "rlock:own": the calling context (this Fiber, or the main flow) '
                . 'holds its read lock already, and would wait for itself (a writer waits for every reader to leave); '
                . 'release the read lock first', $e->getMessage());
        }
    }

    public function testSemaphore(): void
    {
        $a = new InMemorySemaphore('s', 3, ['ttl' => 1000]);
        $b = new InMemorySemaphore('s', 3);
        $this->assertFalse($a->isAcquired());
        $this->assertTrue($a->tryAcquire(2));
        $this->assertSame(2, $a->held());
        $this->assertTrue($a->isAcquired());
        $this->assertSame(1, $b->available());
        $this->assertFalse($b->tryAcquire(2));
        $this->assertTrue($b->tryAcquire());
        $this->assertTrue($a->extend(5000));
        $this->assertFalse($b->acquire(1, 4000), 'no lease ends within the wait');
        $this->assertTrue($b->acquire(1, 2000), 'the permits come back when the lease ends');
        $this->assertSame(0, $a->held());
        $this->assertFalse($a->isAcquired(), 'its lease ended');
        $this->assertFalse($a->release());
        $this->assertSame(2, $b->held());
        $this->assertSame('ran', $b->synchronized(fn () => 'ran'));
        $this->assertSame(2, $b->held(), 'synchronized() gives back only what it took');
        $this->assertTrue($b->release());
        $this->assertSame(3, $b->available());
        try {
            $a->tryAcquire(4);
            $this->fail('4 of 3 permits');
        } catch (ValueError $e) {
            $this->assertStringContainsString('Argument #1 ($permits) must be between 1 and 3', $e->getMessage());
        }
    }

    public function testOnLostIsToldOnceWhenTheHoldIsFoundGone(): void
    {
        $backend = InMemoryBackend::shared();
        $told = [];
        $note = function (object $lock) use (&$told): void {
            $told[] = $lock;
        };
        $a = new InMemoryLock('k', ['ttl' => 1000, 'reentrant' => false]);
        $this->assertSame($a, $a->onLost($note));
        $this->assertTrue($a->tryLock());
        $backend->advance(500);
        $this->assertSame([], $told, 'still held');
        $backend->advance(600);
        $this->assertSame([$a], $told, 'told as the clock passed its lease');
        $this->assertTrue($a->lost());
        $this->assertFalse($a->unlock());
        $backend->advance(5000);
        $this->assertSame([$a], $told, 'once per hold');

        // forced out by another object; released normally: not told
        $this->assertTrue($a->tryLock());
        $this->assertTrue((new InMemoryLock('k'))->forceUnlock());
        $this->assertSame([$a, $a], $told);
        $this->assertTrue($a->tryLock());
        $this->assertTrue($a->unlock());
        $backend->advance(5000);
        $this->assertSame([$a, $a], $told, 'a release is no loss');
        $a->onLost(null);
        $this->assertTrue($a->tryLock());
        $backend->advance(5000);
        $this->assertSame([$a, $a], $told, 'no callback any more');

        $s = (new InMemorySemaphore('s', 2, ['ttl' => 1000]))->onLost($note);
        $this->assertTrue($s->tryAcquire(2));
        $backend->advance(2000);
        $this->assertSame($s, $told[2]);
        $this->assertSame(0, $s->held());

        $rw = new InMemoryReadWriteLock('rw', ['ttl' => 1000]);
        $this->assertSame($rw, $rw->onLost($note));
        $this->assertTrue($rw->readLock()->tryLock());
        $backend->advance(2000);
        $this->assertSame($rw->readLock(), $told[3], 'the side is given');
        $this->assertCount(4, $told);
    }

    public function testOptionsAreCheckedAsTheExtensionChecksThem(): void
    {
        $this->assertSame('app:k', (new InMemoryLock('k', ['prefix' => 'app:', 'ttl' => '5000', 'server' => 'redis://x']))->key());
        foreach ([
            [fn () => new InMemoryLock('k', ['tll' => 5]), ValueError::class, 'unknown option "tll"'],
            [fn () => new InMemoryLock('k', ['ttl' => 'soon']), TypeError::class, 'option "ttl" must be of type int, string given'],
            [fn () => new InMemorySemaphore('s', 1, ['fencing' => true]), ValueError::class, 'option "fencing" is not supported by RSemaphore'],
            [fn () => new InMemoryReadWriteLock('rw', ['servers' => []]), ValueError::class, 'option "servers" is not supported by RReadWriteLock'],
            [fn () => new InMemoryLock(''), ValueError::class, 'Argument #1 ($key) must not be empty'],
            // milliseconds, as the extension: 5 (seconds meant) is refused
            [fn () => new InMemoryLock('k', ['ttl' => 5]), ValueError::class, 'option "ttl" is in milliseconds and must be at least 100: 5 would be 5 ms'],
            [fn () => new InMemorySemaphore('s', 1, ['read_timeout' => '2']), ValueError::class, 'option "read_timeout" is in milliseconds'],
            [fn () => (new InMemoryLock('k'))->extend(5), ValueError::class, 'Argument #1 ($ttlMs) is in milliseconds and must be at least 100'],
            [fn () => (new InMemorySemaphore('s', 1))->extend(30), ValueError::class, 'Argument #1 ($ttlMs) is in milliseconds'],
        ] as [$make, $class, $message]) {
            try {
                $make();
                $this->fail("no $class: $message");
            } catch (ValueError | TypeError $e) {
                $this->assertInstanceOf($class, $e);
                $this->assertStringContainsString($message, $e->getMessage());
            }
        }
    }
}
