<?php

declare(strict_types=1);

namespace RLock\Bridge\Laravel;

use Illuminate\Contracts\Redis\LimiterTimeoutException;
use Illuminate\Redis\Limiters\ConcurrencyLimiterBuilder;
use RLock\Bridge\Options;
use RSemaphore;

/**
 * Laravel's `Redis::funnel()` over rlock's RSemaphore: the same builder (limit(),
 * releaseAfter(), block(), then()), but a caller waiting for a slot is woken by a release,
 * first come first served, instead of retrying every 250 ms:
 *
 *     (new Funnel('payments', ['server' => 'redis://10.0.0.5:6379']))
 *         ->limit(50)->releaseAfter(60)->block(3)
 *         ->then(fn () => $provider->charge($order), fn () => abort(503));
 *
 * A slot is one permit of the semaphore named like the funnel, with a lease of
 * releaseAfter seconds; it is given back when the callback returns or throws, else (a
 * request that dies in it) when the lease ends, as Laravel's funnel does.
 */
class Funnel extends ConcurrencyLimiterBuilder
{
    private array $options;

    /** @param array $options RSemaphore's options (server, prefix, ...); the lease is releaseAfter, and
     *                       rlock never gives a slot back when the request ends (`auto_release` off) */
    public function __construct(string $name, #[\SensitiveParameter] array $options = [])
    {
        parent::__construct(null, $name);
        $this->options = $options;
    }

    public function then(callable $callback, ?callable $failure = null)
    {
        $semaphore = new RSemaphore($this->name, (int) $this->maxLocks,
            ['ttl' => Options::secondsToMs(max(1, $this->releaseAfter), 'releaseAfter'), 'auto_release' => false]
            + $this->options);
        if (!$semaphore->acquire(1, Options::secondsToMs(max(0, $this->timeout), 'A wait'))) {
            $e = new LimiterTimeoutException();
            if ($failure) {
                return $failure($e);
            }
            throw $e;
        }
        try {
            return $callback();
        } finally {
            $semaphore->release();
        }
    }
}
