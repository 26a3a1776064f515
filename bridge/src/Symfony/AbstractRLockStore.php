<?php

declare(strict_types=1);

namespace RLock\Bridge\Symfony;

use RLock;
use Symfony\Component\Lock\BlockingStoreInterface;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Exception\LockExpiredException;
use Symfony\Component\Lock\Key;

/**
 * What the symfony/lock stores over rlock share: each Key that is saved keeps its own RLock
 * in the Key's state (so the Key cannot be serialized): exists(), putOffExpiration() and
 * delete() act as that owner only, and a Key saved by another Key object of the same
 * resource, in this process or another, conflicts. A blocking save waits in RLock::lock(),
 * woken by the release instead of polling. The stores differ in the RLock a Key gets.
 */
abstract class AbstractRLockStore implements BlockingStoreInterface
{
    /** The longest wait rlock takes (2^31 - 1 ms), waitAndSave()'s when no `wait` is given. */
    private const WAIT_MAX_MS = 2147483647;
    /** The Key's state: its RLock, whether that is a read side, and [token, hrtime ns its
     * lease ends] of its last save. */
    private const LOCK = self::class;
    private const READ = self::class . '::read';
    private const LEASE = self::class . '::lease';

    protected array $options;
    private int $ttlMs;
    protected int $waitMs;

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
        // bad options fail here, as the lock's constructor names them, not at the first save
        $this->newLock('rlock-bridge', false);
    }

    /** A new RLock on $resource: its read side when $read (a store with shared locks). */
    abstract protected function newLock(string $resource, bool $read): RLock;

    public function save(Key $key)
    {
        $this->take($key, 0, false);
    }

    public function waitAndSave(Key $key)
    {
        $this->take($key, $this->waitMs, false);
    }

    public function putOffExpiration(Key $key, float $ttl)
    {
        $key->reduceLifetime($ttl);
        $lock = $this->lockOf($key);
        // rlock refuses a lease under 100 ms (a ttl in seconds mistaken for ms): a shorter one
        // asked in seconds is held 100 ms, the Key expiring at the time asked
        $ttlMs = max(100, (int) ceil($ttl * 1000));
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
            $this->forget($key);
        }
    }

    public function exists(Key $key): bool
    {
        $lock = $this->lockOf($key);
        return $lock !== null && $lock->isAcquired();
    }

    /**
     * Take the lock for $key (its read side when $read) within $waitMs (0: one try), or renew
     * it if $key holds it. A Key that holds the other side gives it back first, then takes
     * this one (symfony's promotion and demotion; not atomic), and tries to take the side it
     * had back when this one is not free.
     */
    protected function take(Key $key, int $waitMs, bool $read): void
    {
        $key->reduceLifetime($this->ttlMs / 1000);
        $lock = $this->lockOf($key);
        $had = $lock !== null && $lock->token() !== null ? $key->getState(self::READ) : null;
        if ($had === $read && $lock->extend($this->ttlMs)) {
            $this->checkNotExpired($key);
            return;
        }
        if ($had !== null) {
            $lock->unlock();
        }
        $lock = $this->newLock((string) $key, $read);
        if (!($waitMs > 0 ? $lock->lock($waitMs) : $lock->tryLock())) {
            $back = $had !== null && $had !== $read ? $this->newLock((string) $key, $had) : null;
            if ($back !== null && $back->tryLock()) {
                $this->keep($key, $back, $had);
            } else {
                $this->forget($key);
            }
            throw new LockConflictedException(sprintf('The "%s" lock is held by another owner.', $key));
        }
        $this->keep($key, $lock, $read);
        $this->checkNotExpired($key);
    }

    /** $lock, just taken, is $key's. */
    private function keep(Key $key, RLock $lock, bool $read): void
    {
        $key->setState(self::LOCK, $lock);
        $key->setState(self::READ, $read);
        $key->setState(self::LEASE, [$lock->token(), hrtime(true) + $this->ttlMs * 1000000]);
        $key->markUnserializable();
    }

    private function forget(Key $key): void
    {
        foreach ([self::LOCK, self::READ, self::LEASE] as $state) {
            if ($key->hasState($state)) {
                $key->removeState($state);
            }
        }
    }

    /**
     * Whether the lease $lock took for $key at its save, by our clock, ends when a lease of
     * $ttlMs from now would, within 1% of it either way: the same lease, no round trip
     * needed. Only for the save's own token.
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
        return $key->hasState(self::LOCK) ? $key->getState(self::LOCK) : null;
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
