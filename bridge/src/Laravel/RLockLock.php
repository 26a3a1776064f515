<?php

declare(strict_types=1);

namespace RLock\Bridge\Laravel;

use Illuminate\Cache\Lock;
use Illuminate\Contracts\Cache\LockTimeoutException;
use RLock;
use RLock\Bridge\Options;

/**
 * A Laravel cache lock over rlock, with Laravel's lifetime: it lives until it is released
 * (release(), forceRelease(), a restored owner's release()) or its lease ends, not until
 * the object or the request ends. Its owner() is rlock's owner token once acquired: hand it
 * to another process or request, and restoreLock($name, $owner)->release() releases the
 * lock there. block() waits in RLock::lock(), woken by the release, not every 250 ms.
 */
class RLockLock extends Lock
{
    /** The lease of a lock of 0 seconds (Laravel: until released) when the options name no
     * `ttl`: the longest rlock takes, 2^31 - 1 ms (24.8 days). */
    public const FOREVER_MS = 2147483647;

    private array $options;
    private ?RLock $lock = null;

    /**
     * @param int|float $seconds the lease; 0 (Laravel: until released) takes the options'
     *                           `ttl`, else FOREVER_MS
     * @param array $options RLock's options (server, prefix, ...); never reentrant here (two
     *                       Lock objects are two owners), and never released by rlock when the
     *                       object or the request ends (`auto_release` off)
     */
    public function __construct($name, $seconds, $owner = null, #[\SensitiveParameter] array $options = [])
    {
        parent::__construct($name, $seconds, $owner);
        // rlock refuses a lease under 100 ms: a shorter one asked in seconds is held 100 ms
        $this->options = ['reentrant' => false, 'auto_release' => false,
            'ttl' => $seconds > 0 ? Options::secondsToMs($seconds, 'A lock', Options::MS_FLOOR)
                : $options['ttl'] ?? self::FOREVER_MS] + $options;
    }

    public function acquire()
    {
        return $this->take(0);
    }

    public function block($seconds, $callback = null)
    {
        if (!$this->take(Options::secondsToMs(max(0, $seconds), 'A wait'))) {
            throw new LockTimeoutException();
        }
        if (is_callable($callback)) {
            try {
                return $callback();
            } finally {
                $this->release();
            }
        }
        return true;
    }

    /** Release if $this->owner holds the lock: ours, or a restored owner's (RLock::release). */
    public function release()
    {
        if ($this->holds()) {
            return $this->lock->unlock();
        }
        return RLock::release((string) $this->name, (string) $this->owner, $this->options);
    }

    /**
     * Release the lock whoever holds it (RLock::forceUnlock()): ours, a restored owner's, or
     * another process' or request's; the next waiter is handed it or woken, as by a release.
     */
    public function forceRelease()
    {
        $this->rlock()->forceUnlock();
    }

    /** The owner, when it holds the lock (asked of Redis: ours, or a restored owner's); null otherwise. */
    protected function getCurrentOwner()
    {
        if ($this->holds()) {
            return $this->lock->isAcquired() ? $this->owner : null;
        }
        $lock = $this->rlock();
        return $lock->token() === null && (string) $this->owner !== '' && $lock->restore((string) $this->owner)
            ? $this->owner : null;
    }

    private function rlock(): RLock
    {
        return $this->lock ??= new RLock((string) $this->name, $this->options);
    }

    private function holds(): bool
    {
        return $this->lock !== null && $this->lock->token() !== null && $this->lock->token() === $this->owner;
    }

    /** Acquire within $waitMs (0: one try); the owner becomes rlock's token. */
    private function take(int $waitMs): bool
    {
        $lock = $this->rlock();
        if (!($waitMs > 0 ? $lock->lock($waitMs) : $lock->tryLock())) {
            return false;
        }
        $this->owner = $lock->token();
        return true;
    }
}
