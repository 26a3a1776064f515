<?php

declare(strict_types=1);

namespace RLock\Bridge\Laravel;

use Illuminate\Cache\Lock;
use Illuminate\Contracts\Cache\LockTimeoutException;
use RLock;

/**
 * A Laravel cache lock over rlock. Its owner() is rlock's owner token once acquired: hand
 * it to another process, and restoreLock($name, $owner)->release() releases the lock there
 * (RLock::release). block() waits in RLock::lock(), woken by the release, not every 250 ms.
 */
class RLockLock extends Lock
{
    private array $options;
    private ?RLock $lock = null;

    /**
     * @param int $seconds the lease; 0 takes the options' `ttl` (rlock's locks always expire)
     * @param array $options RLock's options (server, ttl, prefix, ...); never reentrant here:
     *                       two Lock objects are two owners
     */
    public function __construct($name, $seconds, $owner = null, #[\SensitiveParameter] array $options = [])
    {
        parent::__construct($name, $seconds, $owner);
        $this->options = ['reentrant' => false] + $options;
        $this->options['reentrant'] = false;
        if ($seconds > 0) {
            // rlock refuses a lease under 100 ms: a shorter one asked in seconds is held 100 ms
            $this->options['ttl'] = max(100, (int) ceil($seconds * 1000));
        }
    }

    public function acquire()
    {
        return $this->take(0);
    }

    public function block($seconds, $callback = null)
    {
        if (!$this->take(max(0, (int) ceil($seconds * 1000)))) {
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
     * Release our hold, whoever took it of this name (ours or a restored owner's). rlock never
     * deletes another owner's lock: one held by someone else stays until its lease ends.
     */
    public function forceRelease()
    {
        $this->release();
    }

    /** The owner, when this object holds the lock (asked of Redis); null otherwise. */
    protected function getCurrentOwner()
    {
        return $this->holds() && $this->lock->isAcquired() ? $this->owner : null;
    }

    private function holds(): bool
    {
        return $this->lock !== null && $this->lock->token() !== null && $this->lock->token() === $this->owner;
    }

    /** Acquire within $waitMs (0: one try); the owner becomes rlock's token. */
    private function take(int $waitMs): bool
    {
        $this->lock ??= new RLock((string) $this->name, $this->options);
        if (!($waitMs > 0 ? $this->lock->lock($waitMs) : $this->lock->tryLock())) {
            return false;
        }
        $this->owner = $this->lock->token();
        return true;
    }
}
