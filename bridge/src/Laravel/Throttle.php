<?php

declare(strict_types=1);

namespace RLock\Bridge\Laravel;

use Illuminate\Contracts\Redis\LimiterTimeoutException;
use Illuminate\Redis\Limiters\DurationLimiterBuilder;
use RLock\Bridge\Options;
use RRateLimiter;

/**
 * Laravel's `Redis::throttle()` over rlock's RRateLimiter: the same builder (allow(),
 * every(), block(), then()), but one script on the server's clock decides (no PHP host's
 * `microtime()` in the window), and a caller over the limit sleeps in acquire() exactly
 * until its permit is due instead of retrying every 750 ms:
 *
 *     (new Throttle('mail', ['server' => 'redis://10.0.0.5:6379']))
 *         ->allow(100)->every(60)->block(3)
 *         ->then(fn () => $mailer->send($message), fn () => $this->release(10));
 *
 * allow(N)->every(S) is N permits per S seconds, N of them at once (the burst): GCRA, not
 * Laravel's fixed window, so the N of a window are spread over it after the first burst
 * and no window boundary lets 2N through in a moment. block(0) decides at once; Laravel's
 * sleep() (its polling interval, Laravel 9+) is ignored: nothing polls.
 */
class Throttle extends DurationLimiterBuilder
{
    private array $options;

    /** @param array $options RRateLimiter's options (server, prefix, fair, burst, ...) */
    public function __construct(string $name, #[\SensitiveParameter] array $options = [])
    {
        parent::__construct(null, $name);
        $this->options = $options;
    }

    public function then(callable $callback, ?callable $failure = null)
    {
        $limiter = new RRateLimiter($this->name, (int) $this->maxLocks, Options::secondsToMs($this->decay, 'every()'), $this->options);
        $waitMs = Options::secondsToMs(max(0, $this->timeout), 'block()');
        if (!($waitMs > 0 ? $limiter->acquire(1, $waitMs) : $limiter->tryAcquire())) {
            $e = new LimiterTimeoutException();
            if ($failure) {
                return $failure($e);
            }
            throw $e;
        }
        return $callback();
    }
}
