<?php

declare(strict_types=1);

namespace RLock\Bridge\Testing;

use RLock\Bridge\Options;
use RLock\RateLimiterInterface;

/**
 * An RRateLimiter in memory, for unit tests of code typed against RLock\RateLimiterInterface,
 * without Redis (see InMemoryLock): the same GCRA on the backend's clock, shared by every
 * object of the name; $limit permits per $periodMs, "burst" (default $limit) at once. A wait
 * never sleeps: acquire($n, $waitMs) takes the permits when they are due within the wait,
 * and moves the backend's clock on to when they are; advance() lets a period pass.
 */
class InMemoryRateLimiter implements RateLimiterInterface
{
    private InMemoryBackend $backend;
    private string $slot;
    private int $burst;
    private int $wait;
    /** ms a permit costs */
    private float $per;
    private int $retryAfter = 0;

    /** @param array<string, mixed> $options RRateLimiter's options: burst, wait and prefix count */
    public function __construct(string $name, int $limit, int $periodMs, array $options = [],
        ?InMemoryBackend $backend = null)
    {
        $where = static::class . '::__construct()';
        if ($name === '') {
            throw new \ValueError("$where: Argument #1 (\$name) must not be empty");
        }
        if ($limit < 1 || $limit > 2147483647) {
            throw new \ValueError("$where: Argument #2 (\$limit) must be between 1 and 2147483647 (permits per period)");
        }
        if ($periodMs < 1 || $periodMs > 2147483647) {
            throw new \ValueError("$where: Argument #3 (\$periodMs) must be between " . Options::MS_FLOOR
                . ' and 2147483647 (milliseconds)');
        }
        Options::checkMs($periodMs, "$where: Argument #3 (\$periodMs)");
        $o = Options::check($options, 'RRateLimiter', static::class . '::__construct', 4);
        $most = min(intdiv(2147483647 * $limit, $periodMs), 2147483647);
        $this->burst = $o['burst'] ?? $limit;
        if ($this->burst < 1 || $this->burst > $most) {
            throw new \ValueError("$where: Argument #4 (\$options) option \"burst\" must be between 1 and $most "
                . '(the permits taken at once; at most what refills in 2147483647 ms)');
        }
        $this->backend = $backend ?? InMemoryBackend::shared();
        $this->slot = 'rate' . "\0" . ($o['prefix'] ?? 'rlock:') . $name;
        $this->wait = $o['wait'] ?? 0;
        $this->per = $periodMs / $limit;
    }

    public function tryAcquire(int $n = 1): bool
    {
        $this->checkPermits($n, 'tryAcquire');
        return $this->take($n, 0);
    }

    public function acquire(int $n = 1, ?int $waitMs = null): bool
    {
        $this->checkPermits($n, 'acquire');
        $waitMs ??= $this->wait;
        if ($waitMs < 0 || $waitMs > 2147483647) {
            throw new \ValueError(static::class . '::acquire(): Argument #2 ($waitMs) must be between 0 and 2147483647 (milliseconds)');
        }
        return $this->take($n, $waitMs);
    }

    public function retryAfter(): int
    {
        return $this->retryAfter;
    }

    public function remaining(): int
    {
        $now = $this->backend->now();
        $free = $now + $this->burst * $this->per - max($this->backend->tat($this->slot) ?? $now, $now);
        return max(0, min($this->burst, (int) floor($free / $this->per + 1e-9)));
    }

    public function reset(): void
    {
        $this->backend->tat($this->slot, null, true);
        $this->retryAfter = 0;
    }

    /**
     * $n permits of each of $limiters (doubles on one backend), all or none, as
     * RRateLimiter::all().
     * @param list<self> $limiters
     */
    public static function all(array $limiters, int $n = 1): bool
    {
        if ($limiters === []) {
            throw new \ValueError(static::class . '::all(): Argument #1 ($limiters) must not be empty');
        }
        $waits = [];
        foreach ($limiters as $i => $l) {
            if (!$l instanceof self) {
                throw new \TypeError(static::class . '::all(): Argument #1 ($limiters) must contain only '
                    . self::class . ' objects, ' . get_debug_type($l) . ' given');
            }
            $l->checkPermits($n, 'all', 2);
            $waits[$i] = $l->due($n);
        }
        $ok = max(array_column($waits, 0)) <= 0;
        foreach ($limiters as $i => $l) {
            if ($ok) {
                $l->backend->tat($l->slot, $waits[$i][1], true);
            }
            $l->retryAfter = $ok ? 0 : (int) ceil(max($waits[$i][0], 0) - 1e-9);
        }
        return $ok;
    }

    /** [ms until $n permits are due (<= 0: now), the TAT once they are taken] */
    private function due(int $n): array
    {
        $now = $this->backend->now();
        $tat = max($this->backend->tat($this->slot) ?? $now, $now) + $n * $this->per;
        return [$tat - $this->burst * $this->per - $now, $tat];
    }

    private function take(int $n, int $waitMs): bool
    {
        [$wait, $tat] = $this->due($n);
        if ($wait > $waitMs + 1e-9) {
            $this->retryAfter = (int) ceil($wait - 1e-9);
            return false;
        }
        $this->backend->tat($this->slot, $tat, true);
        $this->retryAfter = 0;
        if ($wait > 0) {
            // nothing else runs while we wait: the clock moves on to when they are due
            $this->backend->advance((int) ceil($wait - 1e-9));
        }
        return true;
    }

    /** A count of permits (argument $arg of $method): 1 to the burst, as RRateLimiter's. */
    private function checkPermits(int $n, string $method, int $arg = 1): void
    {
        if ($n < 1 || $n > $this->burst) {
            throw new \ValueError(sprintf('%s::%s(): Argument #%d ($n) must be between 1 and %d (the limiter\'s burst: '
                . 'more permits could never be admitted at once)', static::class, $method, $arg, $this->burst));
        }
    }
}
