<?php

declare(strict_types=1);

namespace RLock\Bridge\Symfony;

use RLock;
use Symfony\Component\Lock\BlockingStoreInterface;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Exception\LockExpiredException;
use Symfony\Component\Lock\Key;

/**
 * A symfony/lock store over rlock: `new LockFactory(new RLockStore(['server' => ...]))`.
 *
 * Each Key that is saved keeps its own RLock in the Key's state (so the Key cannot be
 * serialized): exists(), putOffExpiration() and delete() act as that owner only, and a Key
 * saved by another Key object of the same resource, in this process or another, conflicts.
 * waitAndSave() waits in RLock::lock(), woken by the release instead of polling.
 */
final class RLockStore implements BlockingStoreInterface
{
    /** The longest wait rlock takes (2^31 - 1 ms), waitAndSave()'s when no `wait` is given. */
    private const WAIT_MAX_MS = 2147483647;
    /** The Key's state: [token, hrtime ns its lease ends] of its last save. */
    private const LEASE = self::class . '::lease';

    private array $options;
    private int $ttlMs;
    private int $waitMs;

    /**
     * @param array $options RLock's options (server, ttl, prefix, ...); `ttl` is the lease a
     *                       save() takes, `wait` how long waitAndSave() waits (default: without
     *                       end). Keys are never reentrant here: two Keys are two owners.
     */
    public function __construct(#[\SensitiveParameter] array $options = [])
    {
        $this->options = ['reentrant' => false] + $options;
        $this->options['reentrant'] = false;
        $this->ttlMs = (int) ($options['ttl'] ?? ini_get('rlock.ttl'));
        $this->waitMs = isset($options['wait']) && $options['wait'] > 0 ? (int) $options['wait'] : self::WAIT_MAX_MS;
        // bad options fail here, as RLock's constructor names them, not at the first save
        new RLock('rlock-bridge', $this->options);
    }

    public function save(Key $key)
    {
        $this->acquire($key, 0);
    }

    public function waitAndSave(Key $key)
    {
        $this->acquire($key, $this->waitMs);
    }

    public function putOffExpiration(Key $key, float $ttl)
    {
        $key->reduceLifetime($ttl);
        $lock = $this->lockOf($key);
        $ttlMs = max(1, (int) ceil($ttl * 1000));
        if ($lock !== null && $this->leaseCovers($key, $lock, $ttlMs)) {
            // Lock::acquire() refreshes right after the save: the lease just taken already
            // ends when this one would, and asking Redis again would hold the lock longer
            $this->checkNotExpired($key);
            return;
        }
        if ($lock === null || !$lock->extend($ttlMs)) {
            throw new LockConflictedException(sprintf('The "%s" lock is not held by this key.', $key));
        }
        $this->checkNotExpired($key);
    }

    public function delete(Key $key)
    {
        $lock = $this->lockOf($key);
        if ($lock !== null) {
            $lock->unlock();
            $key->removeState(self::class);
            if ($key->hasState(self::LEASE)) {
                $key->removeState(self::LEASE);
            }
        }
    }

    public function exists(Key $key): bool
    {
        $lock = $this->lockOf($key);
        return $lock !== null && $lock->isAcquired();
    }

    /** Take the lock for $key within $waitMs (0: one try), or renew it if $key holds it. */
    private function acquire(Key $key, int $waitMs): void
    {
        $key->reduceLifetime($this->ttlMs / 1000);
        $lock = $this->lockOf($key);
        if ($lock !== null && $lock->token() !== null && $lock->extend($this->ttlMs)) {
            $this->checkNotExpired($key);
            return;
        }
        if ($lock === null) {
            $lock = new RLock((string) $key, $this->options);
            $key->setState(self::class, $lock);
            $key->markUnserializable();
        }
        if (!($waitMs > 0 ? $lock->lock($waitMs) : $lock->tryLock())) {
            throw new LockConflictedException(sprintf('The "%s" lock is held by another owner.', $key));
        }
        $key->setState(self::LEASE, [$lock->token(), hrtime(true) + $this->ttlMs * 1000000]);
        $this->checkNotExpired($key);
    }

    /**
     * Whether the lease $lock took for $key at its save, by our clock, ends when a lease of
     * $ttlMs from now would, within 1% of it: the same lease, no round trip needed. Only for
     * the save's own token, and never for a shorter lease (asked of Redis, which shortens it).
     */
    private function leaseCovers(Key $key, RLock $lock, int $ttlMs): bool
    {
        if (!$key->hasState(self::LEASE)) {
            return false;
        }
        [$token, $until] = $key->getState(self::LEASE);
        $gap = hrtime(true) + $ttlMs * 1000000 - $until;  // how much later the asked lease ends
        return $token === $lock->token() && !$lock->lost() && $gap >= -$ttlMs * 10000 && $gap <= $ttlMs * 10000;
    }

    private function lockOf(Key $key): ?RLock
    {
        return $key->hasState(self::class) ? $key->getState(self::class) : null;
    }

    /** Symfony's rule: a save or refresh that outlived the Key's lifetime gives the lock back. */
    private function checkNotExpired(Key $key): void
    {
        if ($key->isExpired()) {
            $this->delete($key);
            throw new LockExpiredException(sprintf('Failed to store the "%s" lock.', $key));
        }
    }
}
