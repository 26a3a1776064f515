<?php
/*
 * RLock\Bridge\Symfony's rate limits (bridge/), against Debian's symfony/rate-limiter and a
 * real Redis: RateLimiter, a LimiterInterface over RRateLimiter (consume() one script call on
 * the server's clock, reserve() sleeping exactly until the tokens are due), made by
 * RateLimiterFactory from symfony's configuration; processes hammering one limit through it
 * get limit x seconds + burst, whatever their clocks say.
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit -c tests/phpunit/phpunit.xml --filter BridgeRateLimiterSymfonyTest
 */

declare(strict_types=1);

use RLock\Bridge\Symfony\RateLimiter;
use RLock\Bridge\Symfony\RateLimiterFactory;
use RLock\Bridge\Testing\InMemoryBackend;
use RLock\Bridge\Testing\InMemoryRateLimiter;
use Symfony\Component\RateLimiter\Exception\MaxWaitDurationExceededException;
use Symfony\Component\RateLimiter\Exception\RateLimitExceededException;
use Symfony\Component\RateLimiter\LimiterInterface;
use Symfony\Component\RateLimiter\Policy\NoLimiter;

final class BridgeRateLimiterSymfonyTest extends BridgeTestCase
{
    /** The hammering children's limiter: symfony's fixed window of 20 per second. */
    private const FIXED_WINDOW = '$l = (new RLock\Bridge\Symfony\RateLimiterFactory(["id" => "api", "policy" => "fixed_window",'
        . ' "limit" => 20, "interval" => "1 second"], $cfg["opts"]))->create("all")';

    private function factory(array $config): RateLimiterFactory
    {
        return new RateLimiterFactory($config + ['id' => 'api'], $this->options());
    }

    /** A fixed window's limiter (its limit named after its size: one limit has one size). */
    private function window(int $limit, string $interval): LimiterInterface
    {
        return $this->factory(['id' => "$limit-$interval", 'policy' => 'fixed_window', 'limit' => $limit, 'interval' => $interval])->create('me');
    }

    public function testConsumeTakesTheBurstThenRefuses(): void
    {
        $limiter = $this->window(3, '1 minute');
        $this->assertInstanceOf(RateLimiter::class, $limiter);
        $first = $limiter->consume();
        $this->assertTrue($first->isAccepted());
        $this->assertSame(3, $first->getLimit());
        $this->assertSame(2, $first->getRemainingTokens());
        $this->assertTrue($limiter->consume(2)->isAccepted());
        $t0 = microtime(true);
        $refused = $limiter->consume();
        $this->assertFalse($refused->isAccepted());
        $this->assertSame(0, $refused->getRemainingTokens());
        // 3 per minute: the fourth is due 20 s after the first
        $due = (float) $refused->getRetryAfter()->format('U.u') - $t0;
        $this->assertTrue($due > 19 && $due <= 20.1, "retry after $due s");
        try {
            $refused->ensureAccepted();
            $this->fail('a refusal was accepted');
        } catch (RateLimitExceededException $e) {
            $this->assertSame($refused, $e->getRateLimit());
        }
        // one key, named as symfony names it ("$id-$key"), gone when the tokens are due again
        $keys = $this->client->keys('*');
        $this->assertCount(1, $keys);
        $this->assertStringContainsString('bridge:3-1 minute-me', $keys[0]);
        $this->assertLessThanOrEqual(60000, $this->client->pttl($keys[0]));
    }

    public function testMoreTokensThanTheBurstIsInvalid(): void
    {
        $limiter = $this->window(3, '1 minute');
        foreach ([fn () => $limiter->consume(4), fn () => $limiter->reserve(4)] as $call) {
            try {
                $call();
                $this->fail('4 tokens of a burst of 3');
            } catch (InvalidArgumentException $e) {
                $this->assertStringContainsString('burst size of the rate limiter (3)', $e->getMessage());
            }
        }
    }

    public function testReserveSleepsUntilTheTokensAreDue(): void
    {
        // 2 per second: after the burst, one due every 500 ms
        $limiter = $this->window(2, '1 second');
        // (before the consume: the server took them after this reading)
        $t0 = microtime(true);
        $this->assertTrue($limiter->consume(2)->isAccepted());
        $reservation = $limiter->reserve();
        $waited = (microtime(true) - $t0) * 1000;
        $this->assertGreaterThanOrEqual(499, $waited, 'reserved before the token was due');
        $this->assertLessThan(500 + self::HANDOVER_MS, $waited);
        $this->assertTrue($reservation->getRateLimit()->isAccepted());
        $this->assertEqualsWithDelta(0.0, $reservation->getWaitDuration(), 0.001, 'the wait is over when reserve() returns');
        $t0 = microtime(true);
        $reservation->wait();
        $this->assertLessThan(400, (microtime(true) - $t0) * 1000, 'wait() slept: the next token was 500 ms away');
        $this->assertFalse($limiter->consume()->isAccepted(), 'the reserved token was taken');
    }

    public function testAReservationLongerThanMaxTimeThrowsAtOnceTakingNothing(): void
    {
        $limiter = $this->window(1, '1 minute');
        $this->assertTrue($limiter->consume()->isAccepted());
        $t0 = microtime(true);
        try {
            $limiter->reserve(1, 5.0);
            $this->fail('a reservation 60 s away within 5 s');
        } catch (MaxWaitDurationExceededException $e) {
            $this->assertFalse($e->getRateLimit()->isAccepted());
            $this->assertStringContainsString('provided maximum time ("5.000" seconds)', $e->getMessage());
        }
        $this->assertLessThan(self::HANDOVER_MS, (microtime(true) - $t0) * 1000, 'refused at once');
        // within the wait: taken; and nothing was taken by the refusal
        $limiter = $this->window(4, '1 second');
        $this->assertTrue($limiter->consume(4)->isAccepted());
        $this->assertTrue($limiter->reserve(1, 2.0)->getRateLimit()->isAccepted());
    }

    public function testAMaxTimeBeyondRlocksLongestWaitIsNoBound(): void
    {
        // 2 per second, the burst taken: the next is due in 500 ms. A $maxTime of 1e16 s was
        // wrapped by (int) to a bound it could not be (INF to 0: refused at once)
        $limiter = $this->window(2, '1 second');
        $t0 = microtime(true);
        $this->assertTrue($limiter->consume(2)->isAccepted());
        foreach ([1e16, INF] as $k => $maxTime) {
            $this->assertTrue($limiter->reserve(1, $maxTime)->getRateLimit()->isAccepted(), "maxTime $maxTime");
            $this->assertGreaterThanOrEqual(500 * ($k + 1) - 1, (microtime(true) - $t0) * 1000, 'taken when due, not before');
        }
        $this->expectExceptionObject(new InvalidArgumentException('The maximum time of a reservation is NAN'));
        $limiter->reserve(1, NAN);
    }

    public function testReserveWithoutMaxTimeSleepsHoursWithoutPolling(): void
    {
        // 1 per 2 hours: the second token is due past an hour (what one wait of reserve() took,
        // then it asked again at once, and again: thousands of script calls a second)
        $i = $this->startChild('$l = (new RLock\Bridge\Symfony\RateLimiterFactory(["id" => "slow", "policy" => "fixed_window",'
            . ' "limit" => 1, "interval" => "2 hours"], $cfg["opts"]))->create("me"); $l->consume(); echo "{}\n"; $l->reserve();');
        $this->report($i);
        // reserved (fair, the default): the limit's key holds the second token's due time, 2 h on
        $this->await(function () {
            foreach ($this->client->keys('*') as $key) {
                if ($this->client->pttl($key) > 3 * 3600 * 1000) {
                    return true;
                }
            }
            return false;
        }, 'the second token is reserved');
        $before = $this->scripts();
        usleep(300000);  // (what is measured: nothing happens in this time)
        $this->assertSame($before, $this->scripts(), 'the waiting reserve() asked Redis again');
        $this->killChild($i);
    }

    public function testResetForgetsTheLimit(): void
    {
        $limiter = $this->window(1, '1 hour');
        $this->assertTrue($limiter->consume()->isAccepted());
        $this->assertFalse($limiter->consume()->isAccepted());
        $limiter->reset();
        $this->assertSame([], $this->client->keys('*'));
        $this->assertTrue($limiter->consume()->isAccepted());
    }

    public function testTheFactoryMapsSymfonysPolicies(): void
    {
        // a bucket of 10 refilled with 5 per second: 10 at once, then one every 200 ms
        $bucket = $this->factory(['id' => 'bucket', 'policy' => 'token_bucket', 'limit' => 10, 'rate' => ['interval' => '1 second', 'amount' => 5]])->create('b');
        $this->assertTrue($bucket->consume(10)->isAccepted());
        $refused = $bucket->consume();
        $this->assertFalse($refused->isAccepted());
        $this->assertSame(10, $refused->getLimit());
        $due = (float) $refused->getRetryAfter()->format('U.u') - microtime(true);
        $this->assertTrue($due > 0.1 && $due <= 0.2, "retry after $due s");
        // keys are distinct per create() key; sliding_window is the same limit
        $sliding = $this->factory(['policy' => 'sliding_window', 'limit' => 1, 'interval' => '1 minute']);
        $this->assertTrue($sliding->create('a')->consume()->isAccepted());
        $this->assertTrue($sliding->create('b')->consume()->isAccepted());
        $this->assertFalse($sliding->create('a')->consume()->isAccepted());
        $this->assertInstanceOf(NoLimiter::class, $this->factory(['policy' => 'no_limit'])->create());
    }

    public function testTheFactoryRefusesWhatSymfonysRefuses(): void
    {
        $bad = [
            [['policy' => 'leaky'], LogicException::class, 'Limiter policy "leaky" does not exists'],
            [['policy' => 'fixed_window', 'limit' => 1, 'interval' => 'soon'], LogicException::class, 'Cannot parse interval "soon"'],
            [['policy' => 'fixed_window', 'interval' => '1 second'], InvalidArgumentException::class, 'no int "limit"'],
            [['id' => null, 'policy' => 'fixed_window'], InvalidArgumentException::class, 'no "id"'],
        ];
        foreach ($bad as [$config, $class, $message]) {
            try {
                new RateLimiterFactory($config + ['id' => 'api'], $this->options());
                $this->fail("accepted $message");
            } catch (Exception $e) {
                $this->assertInstanceOf($class, $e);
                $this->assertStringContainsString($message, $e->getMessage());
            }
        }
    }

    public function testProcessesThroughAFixedWindowGetTheLimitExactly(): void
    {
        // 20 per second, 20 at once: no window edge lets 40 through
        $this->assertProcessesGetTheLimit(self::FIXED_WINDOW, '$l->consume()->isAccepted()', 20, 1000, 20);
    }

    public function testProcessesWithSkewedClocksGetTheLimitExactly(): void
    {
        // half of them 2 s ahead (symfony's own windows bend, symfony #44354): the server's clock decides
        $this->assertProcessesGetTheLimit(self::FIXED_WINDOW, '$l->consume()->isAccepted()', 20, 1000, 20, 4);
    }

    public function testOverTheInMemoryDouble(): void
    {
        // a unit test of code using the bridge, without Redis: reserve() moves the double's clock, never sleeps
        InMemoryBackend::reset();
        $limiter = (new RateLimiterFactory(['id' => 'api', 'policy' => 'fixed_window', 'limit' => 2, 'interval' => '1 minute'], [],
            InMemoryRateLimiter::class))->create('me');
        // (the double's clock runs with the machine's: the first consume is some time in [before, after])
        $before = InMemoryBackend::shared()->now();
        $this->assertTrue($limiter->consume(2)->isAccepted());
        $after = InMemoryBackend::shared()->now();
        $refused = $limiter->consume();
        $this->assertFalse($refused->isAccepted());
        $this->assertSame(0, $refused->getRemainingTokens());
        $wall = microtime(true);
        $this->assertTrue($limiter->reserve()->getRateLimit()->isAccepted());
        $end = InMemoryBackend::shared()->now();
        // (and the machine's time since the reservation moved it: at most the call's)
        $call = (int) ceil((microtime(true) - $wall) * 1000);
        $this->assertTrue($end - $after <= 30000 + $call && 30000 <= $end - $before,
            "due 30 s after the first: the clock at $end, the first in [$before, $after], the call took $call ms");
        $this->assertLessThan(1000, $call);
        $this->assertSame([], $this->client->keys('*'), 'nothing in Redis');
    }
}
