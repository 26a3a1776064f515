<?php

declare(strict_types=1);

namespace RLock\Bridge\Symfony;

use RLock;
use RLock\Bridge\Options;
use Symfony\Component\Lock\BlockingStoreInterface;
use Symfony\Component\Lock\Exception\InvalidTtlException;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Exception\LockExpiredException;
use Symfony\Component\Lock\Key;

/**
 * What the symfony/lock stores over rlock share. A lock lives as symfony's RedisStore's
 * does: until it is released (delete(): symfony's Lock::release(), and its destructor when
 * the Lock was created with autoRelease) or its lease ends, never released by rlock when a
 * PHP object or the request ends.
 *
 * A saved Key keeps its owner token (and which side it holds) in its state, as RedisStore's
 * Keys do, so it can be serialized: a Key saved in one request or process, unserialized in
 * another, is that owner there too (RLock::restore()): exists(), putOffExpiration(),
 * delete() and a save() that renews act as it. A Key saved by another Key object of the same
 * resource conflicts. A blocking save waits in RLock::lock(), woken by the release instead of
 * polling. The stores differ in the RLock a Key gets.
 */
abstract class AbstractRLockStore implements BlockingStoreInterface
{
    /** The lease of a save() when the options name no `ttl`: RedisStore's initialTtl, 300 s. */
    public const INITIAL_TTL_MS = 300000;
    /** The longest wait rlock takes (2^31 - 1 ms), waitAndSave()'s when no `wait` is given. */
    private const WAIT_MAX_MS = 2147483647;

    protected array $options;
    private int $ttlMs;
    protected int $waitMs;
    /** @var \WeakMap<Key, array{0: RLock, 1: int}> the RLock each saved Key holds through in
     *  this process, and the hrtime (ns) the lease it last set ends (0: unknown, restored) */
    private \WeakMap $locks;

    /**
     * @param array $options RLock's options (server, prefix, ...). `ttl` is the lease a save()
     *                       takes, symfony's RedisStore's initialTtl (default 300 s): a Lock
     *                       with a ttl of its own (LockFactory::createLock()'s, 300 s unless
     *                       told) sets that at once, so it governs only Locks made with a null
     *                       ttl. `wait` is how long waitAndSave() waits (default: without
     *                       end). Keys are never reentrant here (two Keys are two owners), and
     *                       never released by rlock when an object or the request ends
     *                       (`auto_release` off): symfony releases.
     */
    public function __construct(#[\SensitiveParameter] array $options = [])
    {
        $this->options = ['reentrant' => false, 'auto_release' => false] + $options + ['ttl' => self::INITIAL_TTL_MS];
        $this->locks = new \WeakMap();
        // bad options fail here, as the lock's constructor names them, not at the first save
        // (nor cast: "300s" was a lease of 300 ms)
        $this->newLock('rlock-bridge', false);
        $this->ttlMs = (int) $this->options['ttl'];
        $this->waitMs = isset($options['wait']) && $options['wait'] > 0 ? (int) $options['wait'] : self::WAIT_MAX_MS;
    }

    /** A new RLock on $resource: its read side when $read (a store with shared locks). */
    abstract protected function newLock(string $resource, bool $read): RLock;

    public function save(Key $key): void
    {
        $this->take($key, 0, false);
    }

    public function waitAndSave(Key $key): void
    {
        $this->take($key, $this->waitMs, false);
    }

    public function putOffExpiration(Key $key, float $ttl): void
    {
        $key->reduceLifetime($ttl);
        $lock = $this->lockOf($key);
        // rlock refuses a lease under 100 ms (a ttl in seconds mistaken for ms): a shorter one
        // asked in seconds is held 100 ms, the Key expiring at the time asked
        try {
            $ttlMs = Options::secondsToMs($ttl, 'A TTL', Options::MS_FLOOR);
        } catch (\InvalidArgumentException $e) {
            // refused before the lock is kept: Lock::acquire() saved it a moment ago
            $this->delete($key);
            throw new InvalidTtlException($e->getMessage(), 0, $e);
        }
        if ($lock !== null && $this->leaseCovers($key, $lock, $ttlMs)) {
            // Lock::acquire() refreshes right after the save: the lease just taken already
            // ends when this one would, and asking Redis again would hold the lock longer.
            // The Key claims no more than that lease (it may end up to 1% sooner).
            $key->reduceLifetime(max(0, $this->locks[$key][1] - hrtime(true)) / 1e9);
            $this->checkNotExpired($key);
            return;
        }
        $sent = hrtime(true);
        if ($lock === null || !$lock->extend($ttlMs)) {
            throw new LockConflictedException(sprintf('The "%s" lock is not held by this key.', $key));
        }
        $this->leased($key, $sent, $ttlMs);
        $this->checkNotExpired($key);
    }

    public function delete(Key $key): void
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
        $had = $lock !== null && $lock->token() !== null ? $key->getState(self::class)[1] : null;
        $sent = hrtime(true);
        if ($had === $read && $lock->extend($this->ttlMs)) {
            $this->leased($key, $sent, $this->ttlMs);
            $this->checkNotExpired($key);
            return;
        }
        if ($had !== null) {
            $lock->unlock();
        }
        $lock = $this->newLock((string) $key, $read);
        $sent = hrtime(true);
        if (!($waitMs > 0 ? $lock->lock($waitMs) : $lock->tryLock())) {
            $back = $had !== null && $had !== $read ? $this->newLock((string) $key, $had) : null;
            $backSent = hrtime(true);
            if ($back !== null && $back->tryLock()) {
                $this->keep($key, $back, $had, $backSent);
            } else {
                $this->forget($key);
            }
            throw new LockConflictedException(sprintf('The "%s" lock is held by another owner.', $key));
        }
        $this->keep($key, $lock, $read, $sent);
        $this->checkNotExpired($key);
    }

    /** $lock, just taken (asked at hrtime $sent), is $key's: its token in the Key's state, the RLock kept here. */
    private function keep(Key $key, RLock $lock, bool $read, int $sent): void
    {
        $key->setState(self::class, [$lock->token(), $read]);
        $this->locks[$key] = [$lock, 0];
        $this->leased($key, $sent, $this->ttlMs);
    }

    /**
     * $key's lease is $ttlMs from hrtime $sent, when it was asked for (Redis set it later: it
     * ends no sooner). What leaseCovers() compares with: every lease set, a refresh's too (a
     * refresh to a shorter lease, then one back to the save's, is a round trip).
     */
    private function leased(Key $key, int $sent, int $ttlMs): void
    {
        $this->locks[$key][1] = $sent + $ttlMs * 1000000;
    }

    private function forget(Key $key): void
    {
        if ($key->hasState(self::class)) {
            $key->removeState(self::class);
        }
        unset($this->locks[$key]);
    }

    /**
     * Whether the lease $lock last set for $key (its save's, or a refresh's), by our clock,
     * ends when a lease of $ttlMs from now would, within 1% of it either way: the same lease,
     * no round trip needed. Only for a lease set in this process.
     */
    private function leaseCovers(Key $key, RLock $lock, int $ttlMs): bool
    {
        $until = $this->locks[$key][1];
        $gap = hrtime(true) + $ttlMs * 1000000 - $until;  // how much later the asked lease ends
        return $until > 0 && $lock->token() !== null && !$lock->lost() && $gap >= -$ttlMs * 10000 && $gap <= $ttlMs * 10000;
    }

    /**
     * The RLock $key holds through, or null when it was never saved. A Key saved elsewhere
     * (in another process or request, then serialized) gets one here that is restored as
     * its owner, if that owner holds the lock still; so does a Key whose RLock forgot its
     * token (RLock::releaseAll() after a worker's request: the lock, `auto_release` off, is
     * held still).
     */
    private function lockOf(Key $key): ?RLock
    {
        if (!$key->hasState(self::class)) {
            return null;
        }
        if (!isset($this->locks[$key]) || $this->locks[$key][0]->token() === null) {
            [$token, $read] = $key->getState(self::class);
            $lock = $this->newLock((string) $key, $read);
            $lock->restore($token);
            $this->locks[$key] = [$lock, 0];
        }
        return $this->locks[$key][0];
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
