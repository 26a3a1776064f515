<?php

declare(strict_types=1);

namespace RLock\Bridge\Laravel;

use Closure;
use Illuminate\Cache\ArrayStore;
use Illuminate\Cache\RateLimiter as LaravelRateLimiter;
use Illuminate\Cache\Repository;
use Illuminate\Contracts\Cache\Repository as Cache;
use RLock\Bridge\Options;
use RLock\RateLimiterInterface;
use RRateLimiter;

/**
 * Laravel's `RateLimiter` (the facade, the `throttle` middleware) over rlock's RRateLimiter,
 * without the race between the check and the count: bind it in a service provider,
 *
 *     $this->app->singleton(\Illuminate\Cache\RateLimiter::class,
 *         fn ($app) => new \RLock\Bridge\Laravel\RateLimiter(['server' => 'redis://10.0.0.5:6379'],
 *             $app->make('cache')->driver()));
 *
 * and every request admitted is one atomic decision in Redis, on the server's clock, one
 * round trip: attempt() takes the permit before the callback runs; tooManyAttempts() takes
 * it for the hit() that follows (the middleware's `tooManyAttempts(); hit();`), which records
 * it without a second decision. Laravel's own checks a counter and increments it in
 * separate calls: concurrent requests all pass the check and all run.
 *
 * Where the semantics differ from Laravel's (a cache counter in a window that starts at the
 * first hit):
 * - a key's limit is GCRA: maxAttempts per decaySeconds, maxAttempts of them at once (the
 *   burst), then one every decaySeconds/maxAttempts; there is no window to reset all at once.
 *   availableIn() is when the next attempt is admitted, not the end of a window.
 * - the check counts: a tooManyAttempts() that returns false has taken an attempt, whether
 *   hit() follows or not (a hit() records one that a check took, else takes one). Code that
 *   checks on every try and hits only on failures (Breeze's login) counts every try; it
 *   clears the key on success, as Breeze does, and nothing is lost. A key checked twice
 *   before its hit() counts twice.
 * - the decay belongs to the key, not to each hit: tooManyAttempts() takes no decay, so it
 *   decides with the decay this object last used for the key, else the constructor's
 *   (60 s, the middleware's `throttle:60,1` and hit()'s default): build it with the decay
 *   of your limits (`decaySeconds: 3600` for perHour()).
 * - hit() needs the key's maxAttempts: it is known from a tooManyAttempts(), attempt() or
 *   remaining() of the key on this object, else hit() throws a LogicException.
 * The cache given is Laravel's for everything else (named limiters: for(), limiter()).
 */
class RateLimiter extends LaravelRateLimiter
{
    private array $options;
    private int $decaySeconds;
    /** @var class-string<RateLimiterInterface> */
    private string $class;
    /** @var array<string, array{0: RateLimiterInterface, 1: int, 2: int|float, 3: bool}> per key: its limiter,
     *       maxAttempts, decaySeconds, whether its last decision refused */
    private array $rates = [];
    /** @var array<string, int> per key, the attempts tooManyAttempts() took that no hit() recorded yet */
    private array $pending = [];
    /** The keys this object keeps its limiters of (a long-running worker's may see a key per user):
     * past this, the least recently decided key with no attempt pending is forgotten. */
    public const KEYS_KEPT = 1024;

    /**
     * @param array $options RRateLimiter's options (server, prefix, fair, ...)
     * @param class-string<RateLimiterInterface> $class the limiters' class: RRateLimiter, or a double
     *                                                 with its constructor (RLock\Bridge\Testing\InMemoryRateLimiter)
     */
    public function __construct(#[\SensitiveParameter] array $options = [], ?Cache $cache = null, int $decaySeconds = 60,
        string $class = RRateLimiter::class)
    {
        parent::__construct($cache ?? new Repository(new ArrayStore()));
        $this->options = $options;
        $this->decaySeconds = $decaySeconds;
        $this->class = $class;
    }

    public function attempt($key, $maxAttempts, Closure $callback, $decaySeconds = 60)
    {
        if (!$this->decide($this->cleanRateLimiterKey($key), (int) $maxAttempts, $decaySeconds, 1)) {
            return false;
        }
        return $callback() ?: true;
    }

    public function tooManyAttempts($key, $maxAttempts)
    {
        $key = $this->cleanRateLimiterKey($key);
        if (!$this->decide($key, (int) $maxAttempts, null, 1)) {
            return true;
        }
        $this->pending[$key] = ($this->pending[$key] ?? 0) + 1;
        return false;
    }

    /** Records the attempt tooManyAttempts() took, else takes one; returns the attempts made
     * in the limit (maxAttempts + 1 when this one was refused). */
    public function hit($key, $decaySeconds = 60)
    {
        return $this->increment($key, $decaySeconds);
    }

    /** hit() of $amount attempts (Laravel 10+), all or none. */
    public function increment($key, $decaySeconds = 60, $amount = 1)
    {
        $key = $this->cleanRateLimiterKey($key);
        $amount = (int) $amount;
        if (isset($this->pending[$key])) {
            if (--$this->pending[$key] === 0) {
                unset($this->pending[$key]);
            }
            $amount--;
            // the decay of the key from now on
            $this->rate($key, null, $decaySeconds);
        }
        if ($amount > 0 && !$this->decide($key, null, $decaySeconds, $amount)) {
            return $this->rates[$key][1] + $amount;
        }
        return $this->attempts($key);
    }

    public function attempts($key)
    {
        $key = $this->cleanRateLimiterKey($key);
        $remaining = $this->rate($key, null, null)->remaining();
        return $this->rates[$key][1] - $remaining;
    }

    public function resetAttempts($key)
    {
        $this->clear($key);
        return true;
    }

    public function remaining($key, $maxAttempts)
    {
        return $this->rate($this->cleanRateLimiterKey($key), (int) $maxAttempts, null)->remaining();
    }

    public function clear($key)
    {
        $key = $this->cleanRateLimiterKey($key);
        unset($this->pending[$key]);
        ($this->rates[$key][0] ?? new $this->class($key, 1, 1000, $this->options))->reset();
        if (isset($this->rates[$key])) {
            $this->rates[$key][3] = false;
        }
    }

    /** Seconds until the key admits an attempt again, after a refusal here; else 0. */
    public function availableIn($key)
    {
        $rate = $this->rates[$this->cleanRateLimiterKey($key)] ?? null;
        return $rate !== null && $rate[3] ? (int) ceil($rate[0]->retryAfter() / 1000) : 0;
    }

    /** $n attempts of $key, taken or refused in one round trip. */
    private function decide(string $key, ?int $maxAttempts, int|float|null $decaySeconds, int $n): bool
    {
        $ok = $this->rate($key, $maxAttempts, $decaySeconds)->tryAcquire($n);
        // the most recently decided key last, for forget()
        $rate = $this->rates[$key];
        unset($this->rates[$key]);
        $rate[3] = !$ok;
        $this->rates[$key] = $rate;
        return $ok;
    }

    /** Make room for one more key: forget the least recently decided keys with nothing pending, past KEYS_KEPT. */
    private function forget(): void
    {
        foreach ($this->rates as $key => $rate) {
            if (count($this->rates) < self::KEYS_KEPT) {
                return;
            }
            if (!isset($this->pending[$key])) {
                unset($this->rates[$key]);
            }
        }
    }

    /** $key's limiter, of $maxAttempts per $decaySeconds (null: as this object last used for the key). */
    private function rate(string $key, ?int $maxAttempts, int|float|null $decaySeconds): RateLimiterInterface
    {
        $known = $this->rates[$key] ?? null;
        $maxAttempts ??= $known[1] ?? throw new \LogicException("the maxAttempts of the rate limiter key \"$key\" is not known here:"
            . ' tooManyAttempts(), attempt() or remaining() tells it');
        $decaySeconds ??= $known[2] ?? $this->decaySeconds;
        if ($known === null || $known[1] !== $maxAttempts || $known[2] != $decaySeconds) {
            $limiter = new $this->class($key, $maxAttempts, Options::secondsToMs($decaySeconds, 'A decay'), $this->options);
            if ($known === null) {
                $this->forget();
            }
            $this->rates[$key] = $known = [$limiter, $maxAttempts, $decaySeconds, false];
        }
        return $known[0];
    }
}
