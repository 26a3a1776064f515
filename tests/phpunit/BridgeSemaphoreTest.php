<?php
/*
 * The bridge's semaphores (bridge/): RLock\Bridge\Symfony\RSemaphoreStore under
 * symfony/semaphore, and RLock\Bridge\Laravel\Funnel, Redis::funnel()'s builder over
 * RSemaphore, whose waiters are woken by a release instead of retrying every 250 ms.
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit -c tests/phpunit/phpunit.xml --filter BridgeSemaphoreTest
 */

declare(strict_types=1);

use Illuminate\Contracts\Redis\LimiterTimeoutException;
use RLock\Bridge\Laravel\Funnel;
use RLock\Bridge\Symfony\RSemaphoreStore;
use Symfony\Component\Semaphore\Exception\SemaphoreAcquiringException;
use Symfony\Component\Semaphore\Exception\SemaphoreExpiredException;
use Symfony\Component\Semaphore\Key;
use Symfony\Component\Semaphore\SemaphoreFactory;

final class BridgeSemaphoreTest extends BridgeTestCase
{
    /** A child: Funnel 'f' of one slot, waiting up to 5 s; reports when it ran. */
    private const FUNNEL = <<<'PHP'
        $ran = (new RLock\Bridge\Laravel\Funnel('f', $cfg['opts']))->limit(1)->block(5)
            ->then(fn () => microtime(true), fn () => false);
        echo json_encode(['ran' => $ran]), "\n";
        PHP;

    /** A child: takes 2 of 'pay''s 3 permits through symfony/semaphore (autoRelease:
     * $cfg['auto']), reports, exits holding. */
    private const HOLDER = <<<'PHP'
        $s = (new Symfony\Component\Semaphore\SemaphoreFactory(new RLock\Bridge\Symfony\RSemaphoreStore($cfg['opts'])))
            ->createSemaphore('pay', 3, 2, 60.0, $cfg['auto']);
        echo json_encode(['got' => $s->acquire()]), "\n";
        PHP;

    /** A child: dies (exit) inside a Funnel's callback. */
    private const FUNNEL_DIES = <<<'PHP'
        (new RLock\Bridge\Laravel\Funnel('f', $cfg['opts']))->limit(1)->releaseAfter(60)->block(0)
            ->then(function () { echo json_encode(['in' => true]), "\n"; exit(0); });
        PHP;

    private function store(): RSemaphoreStore
    {
        return new RSemaphoreStore($this->options());
    }

    public function testSaveTakesTheKeysWeightWithinTheLimit(): void
    {
        $store = $this->store();
        [$a, $b, $c] = [new Key('pay', 3, 2), new Key('pay', 3, 2), new Key('pay', 3, 1)];
        $store->save($a, 10.0);
        try {
            $store->save($b, 10.0);
            $this->fail('4 permits of 3 were taken');
        } catch (SemaphoreAcquiringException) {
        }
        $store->save($c, 10.0);
        $this->assertSame([true, false, true], [$store->exists($a), $store->exists($b), $store->exists($c)]);
        $store->delete($b);  // not saved: nothing to give back
        $this->assertTrue($store->exists($a));
        $store->delete($a);
        $store->save($b, 10.0);
        $this->assertSame([false, true, true], [$store->exists($a), $store->exists($b), $store->exists($c)]);
    }

    public function testSemaphoreFactoryAcquiresUpToTheLimit(): void
    {
        $factory = new SemaphoreFactory($this->store());
        $s = [];
        foreach (range(1, 3) as $i) {
            $s[$i] = $factory->createSemaphore('pay', 2, 1, 10.0, false);
        }
        $this->assertSame([true, true, false], [$s[1]->acquire(), $s[2]->acquire(), $s[3]->acquire()]);
        $this->assertTrue($s[1]->isAcquired());
        $s[1]->release();
        $this->assertTrue($s[3]->acquire());
        $s[2]->refresh(20.0);
        $this->assertTrue($s[2]->isAcquired());
    }

    public function testALeaseUnder100MsIsHeld100Ms(): void
    {
        // rlock refuses a ttl under 100 ms (seconds mistaken for ms); seconds are no mistake
        $store = $this->store();
        $key = new Key('pay', 1, 1);
        $store->save($key, 0.05);
        $this->assertTrue($store->exists($key));
        $store->putOffExpiration($key, 0.05);
        $store->delete($key);
        $this->assertFalse($store->exists($key));
    }

    public function testPutOffExpirationOfPermitsThatRanOutThrows(): void
    {
        $store = $this->store();
        $key = new Key('pay', 1, 1);
        $store->save($key, 0.2);
        $store->putOffExpiration($key, 0.3);
        // once the lease ends the permit is another's to take
        $other = new Key('pay', 1, 1);
        $this->await(function () use ($store, $other): bool {
            try {
                $store->save($other, 10.0);
                return true;
            } catch (SemaphoreAcquiringException) {
                return false;
            }
        }, 'the permit came back when its lease ended', 5);
        $this->expectException(SemaphoreExpiredException::class);
        $store->putOffExpiration($key, 10.0);
    }

    public function testAKeyWhoseLeaseEndedNoLongerExists(): void
    {
        // symfony's RedisStore: A's isAcquired() false once its lease ended and B took the
        // permit (before: both true, exists() answered held() > 0 without asking Redis)
        $factory = new SemaphoreFactory($this->store());
        $a = $factory->createSemaphore('pay', 1, 1, 0.5, false);
        $b = $factory->createSemaphore('pay', 1, 1, 10.0, false);
        $this->assertTrue($a->acquire());
        $this->await(fn (): bool => $b->acquire(), 'the permit came back when its lease ended', 5);
        $this->assertSame([false, true], [$a->isAcquired(), $b->isAcquired()]);
        // nor does save() keep a Key whose lease ended as holding (before: a no-op, true)
        $this->assertFalse($a->acquire());
    }

    public function testPermitsWithoutAutoReleaseOutliveTheirProcess(): void
    {
        $h = $this->startChild(self::HOLDER, ['auto' => false]);
        $this->assertTrue($this->report($h)['got']);
        $this->finishChild($h);
        $this->assertSame(1, (new RSemaphore('pay', 3, $this->options()))->available(), 'kept past the process');
        $factory = new SemaphoreFactory($this->store());
        $this->assertFalse($factory->createSemaphore('pay', 3, 2, 10.0)->acquire());
        // in this process too: the Semaphore object let go, its permits stay
        $s = $factory->createSemaphore('pay', 3, 1, 10.0, false);
        $this->assertTrue($s->acquire());
        unset($s);
        $this->assertSame(0, (new RSemaphore('pay', 3, $this->options()))->available());
    }

    public function testPermitsWithAutoReleaseAreGivenBackBySymfonyWhenTheProcessEnds(): void
    {
        $h = $this->startChild(self::HOLDER, ['auto' => true]);
        $this->assertTrue($this->report($h)['got']);
        $this->finishChild($h);
        $s = (new SemaphoreFactory($this->store()))->createSemaphore('pay', 3, 3, 10.0, false);
        $this->assertTrue($s->acquire(), 'all 3 permits free once the holder exited');
    }

    public function testAFunnelSlotOfAProcessThatDiedInsideIsHeldUntilReleaseAfter(): void
    {
        $c = $this->startChild(self::FUNNEL_DIES);
        $this->assertTrue($this->report($c)['in']);
        $this->finishChild($c);
        $funnel = (new Funnel('f', $this->options()))->limit(1)->block(0);
        $this->assertSame('full', $funnel->then(fn () => 'ran', fn () => 'full'), "Laravel's lifetime: until releaseAfter");
        $this->assertSame(0, (new RSemaphore('f', 1, $this->options()))->available());
    }

    public function testFunnelRunsTheCallbackInASlotAndFreesIt(): void
    {
        $funnel = fn () => (new Funnel('f', $this->options()))->limit(1)->block(0);
        $inside = null;
        $this->assertSame('done', $funnel()->then(function () use ($funnel, &$inside) {
            // the only slot is taken while the callback runs
            $inside = $funnel()->then(fn () => 'ran', fn ($e) => get_class($e));
            return 'done';
        }));
        $this->assertSame(LimiterTimeoutException::class, $inside);
        $this->assertSame('ran again', $funnel()->then(fn () => 'ran again'));
        try {
            $funnel()->then(fn () => throw new DomainException('failed inside'));
            $this->fail('the exception was lost');
        } catch (DomainException) {
        }
        $this->assertSame('after the exception', $funnel()->then(fn () => 'after the exception'));
    }

    public function testFunnelWithoutAFailureCallbackThrowsOnTimeout(): void
    {
        $holder = new RSemaphore('f', 1, $this->options());
        $this->assertTrue($holder->tryAcquire());
        $this->expectException(LimiterTimeoutException::class);
        (new Funnel('f', $this->options()))->limit(1)->block(0)->then(fn () => 'ran');
    }

    public function testAFunnelWaitingInAnotherProcessIsWokenByTheRelease(): void
    {
        $holder = new RSemaphore('f', 1, $this->options());
        $this->assertTrue($holder->tryAcquire());
        $w = $this->startChild(self::FUNNEL);
        $this->awaitBlocked(1);
        $t0 = microtime(true);
        $holder->release();
        $ran = $this->report($w)['ran'];
        $this->assertIsFloat($ran);
        $this->assertLessThan(self::HANDOVER_MS, ($ran - $t0) * 1000, 'the funnel waited past the release');
        $this->finishChild($w);
    }
}
