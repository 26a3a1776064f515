<?php
/*
 * RLock\Bridge\Laravel's rate limits (bridge/), against Debian's illuminate/cache and
 * illuminate/redis and a real Redis: RateLimiter, Laravel's RateLimiter (the facade, the
 * throttle middleware) over RRateLimiter, whose check and count are one decision, and
 * Throttle, Redis::throttle()'s builder, whose block() sleeps until the permit is due instead
 * of retrying every 750 ms; processes hammering one limit through them get limit x seconds +
 * burst, whatever their clocks say.
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit -c tests/phpunit/phpunit.xml --filter BridgeRateLimiterLaravelTest
 */

declare(strict_types=1);

use Illuminate\Cache\RateLimiter as LaravelRateLimiter;
use Illuminate\Cache\RateLimiting\Limit;
use Illuminate\Contracts\Redis\LimiterTimeoutException;
use Illuminate\Redis\Limiters\DurationLimiterBuilder;
use RLock\Bridge\Laravel\RateLimiter;
use RLock\Bridge\Laravel\Throttle;
use RLock\Bridge\Testing\InMemoryBackend;
use RLock\Bridge\Testing\InMemoryRateLimiter;

final class BridgeRateLimiterLaravelTest extends BridgeTestCase
{
    /** The hammering children's limiter: the middleware's check and hit, 20 per second. */
    private const MIDDLEWARE = '$l = new RLock\Bridge\Laravel\RateLimiter($cfg["opts"], null, 1)';

    private function limiter(int $decaySeconds = 60): RateLimiter
    {
        return new RateLimiter($this->options(), null, $decaySeconds);
    }

    public function testItIsLaravelsRateLimiter(): void
    {
        $limiter = $this->limiter();
        $this->assertInstanceOf(LaravelRateLimiter::class, $limiter);
        // named limiters are Laravel's, kept in the cache's object
        $limiter->for('api', fn () => Limit::perMinute(5));
        $this->assertSame(5, ($limiter->limiter('api'))()->maxAttempts);
        $this->assertInstanceOf(DurationLimiterBuilder::class, new Throttle('t', $this->options()));
    }

    public function testAttemptTakesOneAttemptPerCall(): void
    {
        $limiter = $this->limiter();
        $ran = 0;
        for ($i = 0; $i < 5; $i++) {
            $results[] = $limiter->attempt('send:1', 3, function () use (&$ran) { $ran++; return $ran === 1 ? 'first' : null; }, 60);
        }
        $this->assertSame(['first', true, true, false, false], $results);
        $this->assertSame(3, $ran);
        $this->assertSame(0, $limiter->remaining('send:1', 3));
        $this->assertGreaterThan(0, $limiter->availableIn('send:1'));
        // one key, gone when the attempts are due again (3 per 60 s: within 60 s)
        $keys = $this->client->keys('*');
        $this->assertCount(1, $keys);
        $this->assertStringContainsString('bridge:send:1', $keys[0]);
        $this->assertLessThanOrEqual(60000, $this->client->pttl($keys[0]));
    }

    public function testTheCheckTakesTheAttemptTheHitRecords(): void
    {
        $limiter = $this->limiter();
        $this->assertFalse($limiter->tooManyAttempts('warm', 1), 'the script loaded');
        $before = $this->scripts();
        // the middleware: tooManyAttempts(), then hit()
        $this->assertFalse($limiter->tooManyAttempts('k', 2));
        $this->assertSame(1, $this->scripts() - $before, 'the check is one script call');
        $this->assertSame(1, $limiter->hit('k', 60), 'the hit counts the checked attempt once');
        $this->assertFalse($limiter->tooManyAttempts('k', 2));
        $this->assertSame(2, $limiter->hit('k', 60));
        $this->assertTrue($limiter->tooManyAttempts('k', 2));
        $this->assertSame(2, $limiter->attempts('k'));
        $this->assertSame(0, $limiter->retriesLeft('k', 2));
        // a hit with no check takes an attempt, refused here: one over
        $this->assertSame(3, $limiter->hit('k', 60));
        $this->assertSame(2, $limiter->attempts('k'), 'a refused hit takes nothing');
    }

    public function testIncrementTakesItsAmountAllOrNone(): void
    {
        $limiter = $this->limiter();
        $this->assertSame(3, $limiter->remaining('k', 3));
        $this->assertSame(2, $limiter->increment('k', 60, 2));
        $this->assertSame(5, $limiter->increment('k', 60, 2), 'refused: 2 over');
        $this->assertSame(2, $limiter->attempts('k'), 'a refusal takes nothing');
        // after a check, the checked attempt is one of them
        $this->assertFalse($limiter->tooManyAttempts('j', 3));
        $this->assertSame(3, $limiter->increment('j', 60, 3));
        $this->assertTrue($limiter->tooManyAttempts('j', 3));
    }

    public function testEveryCheckTakesAnAttemptAndAHitRecordsOne(): void
    {
        // a long-running worker's object: a check with no hit after it never makes the next one free
        $limiter = $this->limiter();
        $this->assertFalse($limiter->tooManyAttempts('k', 3));
        $this->assertFalse($limiter->tooManyAttempts('k', 3), 'the second check took the second attempt');
        $this->assertSame(2, $limiter->hit('k', 60), 'recorded one of the checks');
        $this->assertSame(2, $limiter->hit('k', 60), 'recorded the other');
        $this->assertSame(3, $limiter->hit('k', 60), 'nothing pending: took the third');
        $this->assertTrue($limiter->tooManyAttempts('k', 3));
    }

    public function testALongRunningWorkerKeepsAtMostKeysKept(): void
    {
        $limiter = new RateLimiter([], null, 60, InMemoryRateLimiter::class);
        InMemoryBackend::reset();
        $this->assertFalse($limiter->tooManyAttempts('pending', 5));
        for ($i = 0; $i < RateLimiter::KEYS_KEPT + 10; $i++) {
            $limiter->attempt("user:$i", 5, fn () => true);
        }
        $rates = new ReflectionProperty($limiter, 'rates');
        $rates->setAccessible(true);
        $this->assertCount(RateLimiter::KEYS_KEPT, $rates->getValue($limiter));
        $this->assertSame(1, $limiter->hit('pending', 60), 'a key with an attempt pending is kept');
        $this->assertSame(4, $limiter->remaining('user:0', 5), 'a forgotten key is asked again: its count is the limiter\'s');
    }

    public function testAHitWithoutTheLimitThrows(): void
    {
        $this->expectException(LogicException::class);
        $this->expectExceptionMessage('maxAttempts of the rate limiter key "k"');
        $this->limiter()->hit('k');
    }

    public function testAvailableInIsWhenTheNextAttemptIsAdmitted(): void
    {
        $limiter = $this->limiter(10);
        // 2 per 10 s: the third is due 5 s after the first
        $this->assertFalse($limiter->tooManyAttempts('k', 2));
        $limiter->hit('k', 10);
        $this->assertSame(0, $limiter->availableIn('k'), 'not refused');
        $this->assertFalse($limiter->tooManyAttempts('k', 2));
        $limiter->hit('k', 10);
        $this->assertTrue($limiter->tooManyAttempts('k', 2));
        $this->assertSame(5, $limiter->availableIn('k'));
        // and in another object (another request), the same limit in Redis
        $other = $this->limiter(10);
        $this->assertTrue($other->tooManyAttempts('k', 2));
        $this->assertSame(5, $other->availableIn('k'));
    }

    public function testClearForgetsTheKey(): void
    {
        $limiter = $this->limiter();
        $this->assertFalse($limiter->tooManyAttempts('k', 1));
        $limiter->hit('k');
        $this->assertTrue($limiter->tooManyAttempts('k', 1));
        $limiter->clear('k');
        $this->assertSame([], $this->client->keys('*'));
        $this->assertFalse($limiter->tooManyAttempts('k', 1));
        $this->assertTrue($limiter->resetAttempts('k'));
        // a key this object never used
        $this->assertFalse($this->limiter()->tooManyAttempts('j', 1));
        $this->limiter()->clear('j');
        $this->assertSame([], $this->client->keys('*'));
    }

    public function testKeysAreCleanedAsLaravelCleansThem(): void
    {
        $limiter = $this->limiter();
        $this->assertFalse($limiter->tooManyAttempts('café', 1));
        $this->assertSame(1, $limiter->hit('café'));
        $this->assertTrue($limiter->tooManyAttempts('cafe', 1), 'the same key once cleaned');
    }

    public function testTheDecayOfTheHitIsTheKeysFromThen(): void
    {
        // built for 60 s; hit() says 1 s: 2 per second from then on, the checks too
        $limiter = $this->limiter(60);
        $this->assertSame(2, $limiter->remaining('k', 2));
        $this->assertSame(1, $limiter->hit('k', 1));
        $this->assertFalse($limiter->tooManyAttempts('k', 2));
        $this->assertSame(2, $limiter->hit('k', 1));
        $this->assertTrue($limiter->tooManyAttempts('k', 2));
        $this->assertSame(1, $limiter->availableIn('k'), 'due within 500 ms, not 30 s');
    }

    public function testThrottleThenAndFailure(): void
    {
        $throttle = fn () => (new Throttle('mail', $this->options()))->allow(2)->every(60)->block(0);
        $this->assertSame('sent', $throttle()->then(fn () => 'sent'));
        $this->assertSame('sent', $throttle()->then(fn () => 'sent', fn () => 'late'));
        $this->assertSame('late', $throttle()->then(fn () => 'sent', fn ($e) => $e instanceof LimiterTimeoutException ? 'late' : 'what'));
        $this->expectException(LimiterTimeoutException::class);
        $throttle()->then(fn () => 'sent');
    }

    public function testThrottleBlockSleepsUntilThePermitIsDueWithoutPolling(): void
    {
        $throttle = fn (int $block) => (new Throttle('mail', $this->options()))->allow(2)->every(1)->block($block);
        // (before the first: the server took it after this reading)
        $t0 = microtime(true);
        $this->assertTrue($throttle(0)->then(fn () => true));
        $this->assertTrue($throttle(0)->then(fn () => true));
        $before = $this->scripts();
        $at = $throttle(3)->then(fn () => microtime(true));
        $waited = ($at - $t0) * 1000;
        // 2 per second: the third is due 500 ms after the first
        $this->assertGreaterThanOrEqual(499, $waited, 'block() ran it before its permit was due');
        $this->assertLessThan(500 + self::HANDOVER_MS, $waited);
        $this->assertLessThanOrEqual(2, $this->scripts() - $before, 'one refusal, one take: no polling');
        // not due within block(): refused at once, not at its end
        $t0 = microtime(true);
        $late = (new Throttle('once', $this->options()))->allow(1)->every(60);
        $late->block(0)->then(fn () => true);
        $this->assertSame('late', $late->block(3)->then(fn () => true, fn () => 'late'));
        $this->assertLessThan(self::HANDOVER_MS, (microtime(true) - $t0) * 1000, 'refused at once: not due within 3 s');
    }

    public function testDurationsBeyondRlocksLongestAreRefusedNotWrapped(): void
    {
        // 584 million years: (int) ceil(seconds * 1000) wrapped it to a period of 4096 ms
        $decay = 1.8446744073709556E16;
        try {
            $this->limiter()->attempt('k', 1, fn () => true, $decay);
            $this->fail('a decay of 584 million years was taken');
        } catch (InvalidArgumentException $e) {
            $this->assertStringContainsString('A decay of 1.844674407371E+16 seconds is longer than rlock takes', $e->getMessage());
        }
        // every() in seconds times 1000 overflowed into a float; block() wrapped as the decay did
        foreach ([['every()', fn (Throttle $t) => $t->every(PHP_INT_MAX)], ['block()', fn (Throttle $t) => $t->every(1)->block($decay)]] as [$what, $set]) {
            try {
                $set((new Throttle('t', $this->options()))->allow(1))->then(fn () => true);
                $this->fail("$what past 24.8 days was taken");
            } catch (InvalidArgumentException $e) {
                $this->assertStringContainsString("$what of ", $e->getMessage());
                $this->assertStringContainsString('at most 2147483 seconds (24.8 days)', $e->getMessage());
            }
        }
        $this->assertSame([], $this->client->keys('*'), 'nothing taken');
        // a numeric string is seconds, as Laravel's builder takes it; anything else names the call
        $this->assertTrue((new Throttle('t', $this->options()))->allow(1)->every(1)->block('2.5')->then(fn () => true));
        $this->expectException(TypeError::class);
        $this->expectExceptionMessage('block() must be a number of seconds, string given');
        (new Throttle('t', $this->options()))->allow(1)->every(1)->block('soon')->then(fn () => true);
    }

    public function testProcessesThroughTheMiddlewareGetTheLimitExactly(): void
    {
        // 20 per second, 20 at once: what 8 processes checking and hitting admit in 3 s each
        $this->assertProcessesGetTheLimit(self::MIDDLEWARE, '!$l->tooManyAttempts("k", 20) && $l->hit("k", 1) > 0', 20, 1000, 20);
    }

    public function testProcessesThroughAttemptWithSkewedClocksGetTheLimitExactly(): void
    {
        // half of them 2 s ahead: the server's clock decides, not theirs
        $this->assertProcessesGetTheLimit(self::MIDDLEWARE, '$l->attempt("k", 20, fn () => true, 1)', 20, 1000, 20, 4);
    }

    public function testProcessesThroughThrottleGetTheLimitExactly(): void
    {
        $this->assertProcessesGetTheLimit('$t = fn () => (new RLock\Bridge\Laravel\Throttle("t", $cfg["opts"]))->allow(20)->every(1)->block(0)',
            '$t()->then(fn () => true, fn () => false)', 20, 1000, 20);
    }

    public function testOverTheInMemoryDouble(): void
    {
        // a unit test of code using the bridge, without Redis: the double's clock moves only when told
        InMemoryBackend::reset();
        $limiter = new RateLimiter([], null, 60, InMemoryRateLimiter::class);
        for ($i = 1; $i <= 2; $i++) {
            $this->assertFalse($limiter->tooManyAttempts('k', 2));
            $this->assertSame($i, $limiter->hit('k', 60));
        }
        $this->assertTrue($limiter->tooManyAttempts('k', 2));
        $this->assertSame(30, $limiter->availableIn('k'), '2 per minute: the next one 30 s after the first');
        InMemoryBackend::shared()->advance(30000);
        $this->assertFalse($limiter->tooManyAttempts('k', 2));
        $this->assertSame([], $this->client->keys('*'), 'nothing in Redis');
    }
}
