<?php

/*
 * The interfaces and exceptions of the rlock extension, declared where it is not loaded:
 * code typed against them, and the in-memory test doubles of RLock\Bridge\Testing, run
 * without it. Generated from rlock.stub.php by scripts/gen_bridge_stubs.php, do not edit.
 */

namespace RLock {
    if (!interface_exists(LockInterface::class, false)) {
        /**
         * A lock, as user code types it: what an RLock object does (the mutex, a read-write
         * lock's side, RLock::multi()), and what a test double implements (the bridge package's
         * RLock\Bridge\Testing\InMemoryLock). Durations are milliseconds.
         */
        interface LockInterface
        {
            /** Acquire, blocking up to $waitMs (default: the lock's wait). */
            public function lock(?int $waitMs = null): bool;

            /** Acquire without blocking. */
            public function tryLock(): bool;

            /** Release; false when the lock was no longer ours. */
            public function unlock(): bool;

            /** Reset our lease to $ttlMs (default: the lock's ttl); false when the lock was lost. */
            public function extend(?int $ttlMs = null): bool;

            /** Become the holder $token names, if it holds the lock now. */
            public function restore(#[\SensitiveParameter] string $token): bool;

            /** Release the lock whoever holds it; false when nobody did. */
            public function forceUnlock(): bool;

            /**
             * Acquire (or throw RLockTimeoutException), call $fn($this), release, and return what
             * $fn returned; throws RLockLostException when the lock expired before the release.
             */
            public function synchronized(callable $fn, ?int $waitMs = null): mixed;

            /** Whether anyone holds the lock. */
            public function isLocked(): bool;

            /** Whether we hold the lock. */
            public function isAcquired(): bool;

            /** Remaining lease in ms; -2 when nobody holds it, -1 when it has no expiry. */
            public function ttl(): int;

            /** Our owner token while we hold the lock. */
            public function token(): ?string;

            /** The fencing token of our current hold, when fencing is on. */
            public function fencingToken(): ?int;

            /** The key, prefix included (a read-write lock's side: the read-write lock's key). */
            public function key(): string;

            /** Whether the lock was found no longer ours while we held it. */
            public function lost(): bool;

            /** Call $fn($this) as soon as a hold of ours is found lost (null: no callback). */
            public function onLost(?callable $fn): static;
        }

        /**
         * A counting semaphore, as user code types it: what an RSemaphore does, and what a test
         * double implements (RLock\Bridge\Testing\InMemorySemaphore). Durations are milliseconds.
         */
        interface SemaphoreInterface
        {
            /** Take $permits permits (all or none), blocking up to $waitMs (default: the semaphore's wait). */
            public function acquire(int $permits = 1, ?int $waitMs = null): bool;

            /** Take $permits permits without blocking. */
            public function tryAcquire(int $permits = 1): bool;

            /** Give back every permit this object holds; false when they were no longer ours. */
            public function release(): bool;

            /** Reset the lease of our permits to $ttlMs (default: the semaphore's ttl); false when they were lost. */
            public function extend(?int $ttlMs = null): bool;

            /** The permits this object holds. */
            public function held(): int;

            /** Whether this object holds permits whose lease has not ended. */
            public function isAcquired(): bool;

            /** The permits free now. */
            public function available(): int;

            /**
             * Acquire $permits (or throw RLockTimeoutException), call $fn($this), release, and
             * return what $fn returned; throws RLockLostException when the permits expired first.
             */
            public function synchronized(callable $fn, int $permits = 1, ?int $waitMs = null): mixed;

            /** Call $fn($this) as soon as permits of ours are found lost (null: no callback). */
            public function onLost(?callable $fn): static;
        }

        /**
         * A rate limiter, as user code types it: what an RRateLimiter does, and what a test double
         * implements (RLock\Bridge\Testing\InMemoryRateLimiter). Durations are milliseconds.
         */
        interface RateLimiterInterface
        {
            /** Take $n permits if they are due now: never blocks. */
            public function tryAcquire(int $n = 1): bool;

            /** Take $n permits, sleeping until they are due if that is within $waitMs (default: the limiter's wait). */
            public function acquire(int $n = 1, ?int $waitMs = null): bool;

            /** The ms until the permits the last refusal refused are due; 0 after an admission. */
            public function retryAfter(): int;

            /** The permits that would be admitted now. */
            public function remaining(): int;

            /** Forget every permit taken: the whole burst is free again. */
            public function reset(): void;
        }

        /** A read-write lock, as user code types it: what an RReadWriteLock does. */
        interface ReadWriteLockInterface
        {
            /** The shared side. */
            public function readLock(): LockInterface;

            /** The exclusive side. */
            public function writeLock(): LockInterface;

            /** Call $fn($side) as soon as a hold of either side is found lost (null: no callback). */
            public function onLost(?callable $fn): static;
        }
    }
}

namespace {
    if (!class_exists(RLockException::class, false)) {
        class RLockException extends RuntimeException
        {
        }

        /** Redis unreachable, I/O error or timeout; authentication refused (or a password wanted). */
        class RLockConnectionException extends RLockException
        {
        }

        /** synchronized(): the lock was not acquired in time. */
        class RLockTimeoutException extends RLockException
        {
        }

        /** synchronized(): the lock expired before it was released. */
        class RLockLostException extends RLockException
        {
            private mixed $result = null;

            /** What the callable returned. */
            public function getResult(): mixed
            {
                return $this->result;
            }
        }
    }
}
