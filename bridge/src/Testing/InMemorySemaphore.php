<?php

declare(strict_types=1);

namespace RLock\Bridge\Testing;

use RLock\Bridge\Options;
use RLock\SemaphoreInterface;

/**
 * An RSemaphore in memory, for unit tests of code typed against RLock\SemaphoreInterface,
 * without Redis (see InMemoryLock): $permits permits shared by every object of the name, each
 * holder's with a lease by the clock; an object that acquires again adds to its permits;
 * release() gives back all of them, synchronized() only the ones it took. A wait never
 * sleeps: acquire($n, $waitMs) gets the permits when enough leases end within the wait, and
 * either way moves the backend's clock on by what it waited. onLost() as the backend tells it
 * (InMemoryBackend).
 */
class InMemorySemaphore implements SemaphoreInterface
{
    private InMemoryBackend $backend;
    private string $key;
    private string $slot;
    private int $limit;
    private int $ttl;
    private int $wait;
    private ?string $token = null;
    private bool $lost = false;
    /** @var ?callable onLost()'s */
    private $onLost = null;

    /** @param array<string, mixed> $options RSemaphore's options: ttl, wait and prefix count */
    public function __construct(string $name, int $permits, array $options = [], ?InMemoryBackend $backend = null)
    {
        if ($name === '') {
            throw new \ValueError(static::class . '::__construct(): Argument #1 ($name) must not be empty');
        }
        if ($permits < 1) {
            throw new \ValueError(static::class . '::__construct(): Argument #2 ($permits) must be between 1 and 2147483647');
        }
        $o = Options::check($options, 'RSemaphore', static::class . '::__construct', 3);
        $this->backend = $backend ?? InMemoryBackend::shared();
        $this->key = ($o['prefix'] ?? 'rlock:') . $name;
        $this->slot = "semaphore\0$this->key";
        $this->limit = $permits;
        $this->ttl = $o['ttl'] ?? 30000;
        $this->wait = $o['wait'] ?? 0;
    }

    public function acquire(int $permits = 1, ?int $waitMs = null): bool
    {
        $this->checkPermits($permits, 'acquire', 1);
        $waitMs ??= $this->wait;
        if ($this->take($permits)) {
            return true;
        }
        // nothing else runs while we wait: the permits are ours when enough leases end in time
        $free = $this->freeAt($permits) - $this->backend->now();
        $this->backend->advance(min($free, $waitMs));
        return $free <= $waitMs && $this->take($permits);
    }

    public function tryAcquire(int $permits = 1): bool
    {
        $this->checkPermits($permits, 'tryAcquire', 1);
        return $this->take($permits);
    }

    public function release(): bool
    {
        if ($this->token === null) {
            return false;
        }
        $ours = $this->backend->drop($this->slot, $this->token);
        $this->token = null;
        $this->lost = !$ours;
        return $ours;
    }

    public function extend(?int $ttlMs = null): bool
    {
        Options::checkMs($ttlMs ?? $this->ttl, static::class . '::extend(): Argument #1 ($ttlMs)');
        $h = $this->mine();
        if ($h === null) {
            return $this->token !== null && $this->foundLost();
        }
        $this->backend->hold($this->slot, $this->token, $this->backend->now() + ($ttlMs ?? $this->ttl), 1, $h['n'], $h['context']);
        return true;
    }

    public function held(): int
    {
        return $this->mine()['n'] ?? 0;
    }

    public function isAcquired(): bool
    {
        return $this->mine() !== null;
    }

    public function available(): int
    {
        return max(0, $this->limit - array_sum(array_column($this->backend->holders($this->slot), 'n')));
    }

    public function synchronized(callable $fn, int $permits = 1, ?int $waitMs = null): mixed
    {
        $this->checkPermits($permits, 'synchronized', 2);
        $waitMs ??= $this->wait;
        $before = $this->held();
        if (!$this->acquire($permits, $waitMs)) {
            throw new \RLockTimeoutException(sprintf('Could not acquire %d permit%s of the semaphore "%s" within %d ms',
                $permits, $permits === 1 ? '' : 's', $this->key, $waitMs));
        }
        // give back the permits it took; those held before stay
        $giveBack = function () use ($permits, $before): bool {
            $h = $this->mine();
            if ($h === null) {
                return $this->token === null ? !$this->lost : $this->foundLost();
            }
            if ($before === 0 || $h['n'] <= $permits) {
                return $this->release();
            }
            $this->backend->hold($this->slot, $this->token, $h['until'], 1, $h['n'] - $permits, $h['context']);
            return true;
        };
        return InMemoryBackend::run($this, $fn, $giveBack,
            sprintf('The permits of the semaphore "%s" expired before they were released', $this->key));
    }

    public function onLost(?callable $fn): static
    {
        $this->onLost = $fn;
        $this->backend->watch($this, $fn !== null);
        return $this;
    }

    /** @internal the backend's: our permits found gone (the clock past their lease) are lost, $fn told once */
    public function tellLost(): void
    {
        if ($this->token === null || $this->onLost === null || $this->mine() !== null) {
            return;
        }
        $this->foundLost();
        ($this->onLost)($this);
    }

    /** Our live hold, or null. */
    private function mine(): ?array
    {
        return $this->token === null ? null : $this->backend->holders($this->slot)[$this->token] ?? null;
    }

    private function take(int $permits): bool
    {
        if ($this->available() < $permits) {
            return false;
        }
        $h = $this->mine();
        if ($h === null) {
            [$this->token, $this->lost] = [InMemoryBackend::token(), false];
        }
        $this->backend->hold($this->slot, $this->token, $this->backend->now() + $this->ttl, 1, ($h['n'] ?? 0) + $permits,
            $h['context'] ?? InMemoryBackend::context());
        return true;
    }

    /** When (our ms) enough leases of others have ended for $permits to be free. */
    private function freeAt(int $permits): int
    {
        $holders = $this->backend->holders($this->slot);
        uasort($holders, fn (array $a, array $b): int => $a['until'] <=> $b['until']);
        $free = $this->available();
        foreach ($holders as $token => $h) {
            if ($token === $this->token) {
                continue;
            }
            $free += $h['n'];
            if ($free >= $permits) {
                return $h['until'];
            }
        }
        return $this->backend->now() + 2147483647;
    }

    /** A permits argument to take (argument $arg of $method): 1 to the permits we do not hold, as RSemaphore's. */
    private function checkPermits(int $permits, string $method, int $arg): void
    {
        $held = $this->held();
        if ($permits < 1 || $permits > $this->limit - $held) {
            throw new \ValueError(sprintf('%s::%s(): Argument #%d ($permits) must be between 1 and %d (the semaphore\'s %s)',
                static::class, $method, $arg, $this->limit - $held,
                $held > 0 ? "$this->limit permits less the $held this object holds" : 'permits'));
        }
    }

    /** Our permits were found gone. */
    private function foundLost(): bool
    {
        [$this->token, $this->lost] = [null, true];
        return false;
    }
}
