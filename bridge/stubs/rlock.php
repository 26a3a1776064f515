<?php

/*
 * The rlock extension's PHP surface, for IDEs and static analysers: generated from
 * rlock.stub.php by scripts/gen_bridge_stubs.php, do not edit. Never loaded by PHP: the
 * extension declares all of it (bridge/polyfill.php declares the interfaces and the
 * exceptions where the extension is not loaded).
 */

namespace RLock {
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

namespace {
    /**
     * A distributed lock on Redis.
     *
     * A hold belongs to the execution context that took it: the request's main flow or a
     * Fiber. It is reentrant within that context only; another Fiber of the process waits for
     * it as another process would, and a Fiber that ends holding releases as a request's end
     * does.
     */
    final class RLock implements RLock\LockInterface
    {
        /**
         * Describe a lock on $key. Nothing is sent to Redis until the lock is used.
         *
         * @param array{server?: string, servers?: list<string>, cluster?: list<string>, sentinel?: list<string>, service?: string, ttl?: int, wait?: int, retry_delay?: int, prefix?: string, connect_timeout?: int, read_timeout?: int, spin_us?: int, persistent?: bool, reentrant?: bool, auto_release?: bool, fencing?: bool, fair?: bool, watchdog?: bool, sync_replicas?: int, tls_ca?: string, tls_cert?: string, tls_key?: string, tls_verify_peer?: bool, tls_server_name?: string} $options see the options table in the README (server, ttl, wait, ...)
         */
        public function __construct(string $key, #[\SensitiveParameter] array $options = []) {}

        /**
         * Acquire, blocking up to $waitMs (default: option "wait"). A wait is 0 to 2147483647 ms
         * (about 24.8 days) for every primitive; more is a ValueError.
         */
        public function lock(?int $waitMs = null): bool {}

        /** Acquire without blocking: one round trip. */
        public function tryLock(): bool {}

        /**
         * Release; false when the lock was no longer ours. Throws RLockException when the
         * calling context holds nothing through this object while another context (Fiber) does.
         */
        public function unlock(): bool {}

        /** Reset our lease to $ttlMs (default: option "ttl"); false when the lock was lost. */
        public function extend(?int $ttlMs = null): bool {}

        /**
         * Become the holder whose token() was $token (a lock taken by another object, request or
         * process, handed over: to a job, in a serialized framework key), if $token holds the
         * lock now, asked of Redis: true, and unlock(), extend(), isAcquired(), token() and ttl()
         * act as that holder from then on (released at request end with "auto_release", renewed
         * with "watchdog", as a lock this object took); false when it does not hold it.
         */
        public function restore(#[\SensitiveParameter] string $token): bool {}

        /**
         * Release the lock whoever holds it (another process' or request's hold included), and
         * serve its waiters as the holder's own release would (the next one is handed it, or
         * woken); true when a hold was deleted, false when nobody held it. For an operator or a
         * framework's forceRelease(): a holder finds it lost at its next unlock() or extend().
         * A read-write lock's read side: every reader out; a lock over several keys: each key.
         */
        public function forceUnlock(): bool {}

        /**
         * Acquire (or throw RLockTimeoutException), call $fn($this), release, and return what
         * $fn returned; throws RLockLostException when the lock expired before the release.
         */
        public function synchronized(callable $fn, ?int $waitMs = null): mixed {}

        /** Whether anyone holds the key. */
        public function isLocked(): bool {}

        /** Whether we hold the key, asked of Redis. */
        public function isAcquired(): bool {}

        /** Remaining lease in ms as Redis says it; -2 when there is no key, -1 when it has no expiry. */
        public function ttl(): int {}

        /** Our owner token while we hold the lock. */
        public function token(): ?string {}

        /** The fencing token of our current hold (option "fencing"). */
        public function fencingToken(): ?int {}

        /**
         * The Redis key, prefix included ("rlock:orders:42"); a read-write lock's side: the
         * read-write lock's key; a lock over several keys: one string naming them all.
         * RLock::release() takes it.
         */
        public function key(): string {}

        /**
         * Whether the lock was found no longer ours while we held it: by a watchdog renewal
         * (option "watchdog"), or by an unlock(), extend() or synchronized() that returned false
         * or threw RLockLostException. Asks nothing of Redis; the next acquire resets it.
         */
        public function lost(): bool {}

        /**
         * Call $fn($this) in this thread as soon as the watchdog (option "watchdog") finds a
         * hold of this object's gone, at the next opcode of whatever runs then (a loop that
         * calls nothing, another Fiber), as pcntl_async_signals() runs a signal's handler:
         * an exception $fn throws surfaces there. Once per hold lost; not for a release, nor
         * for a loss an unlock() or extend() finds before the watchdog does (they return
         * false). Replaces the callback set before; null removes it. Returns $this.
         */
        public function onLost(?callable $fn): static {}

        /**
         * Release a lock by key and owner token, from any process and any execution context (a
         * job handed the lock). $key is what key() returned (prefix included), or the key the
         * constructor took (prefix added): only the lock that holds $token is released. A mutex,
         * a read-write lock's side, a lock over several keys. A token no hold was given ('', null
         * in coercive mode, anything but a token()) releases nothing: false.
         *
         * @param array{server?: string, servers?: list<string>, cluster?: list<string>, sentinel?: list<string>, service?: string, ttl?: int, wait?: int, retry_delay?: int, prefix?: string, connect_timeout?: int, read_timeout?: int, spin_us?: int, persistent?: bool, reentrant?: bool, auto_release?: bool, fencing?: bool, fair?: bool, watchdog?: bool, sync_replicas?: int, tls_ca?: string, tls_cert?: string, tls_key?: string, tls_verify_peer?: bool, tls_server_name?: string} $options
         */
        public static function release(string $key, #[\SensitiveParameter] string $token, #[\SensitiveParameter] array $options = []): bool {}

        /**
         * Release every hold the calling execution context (the main flow, or this Fiber) took,
         * through any object: locks, lock sides, semaphore permits, as the request's end does
         * (holds with auto_release off are let go unreleased, no longer renewed). For the end of
         * a worker loop's iteration. Returns how many holds it released.
         */
        public static function releaseAll(): int {}

        /**
         * A lock over several keys: all of them or none, in one script, whatever order callers
         * name them in (no deadlock). Every method acts on all the keys; a key is the same Redis
         * key as new RLock($key) with the same options.
         *
         * @param list<string> $keys
         * @param array{server?: string, cluster?: list<string>, sentinel?: list<string>, service?: string, ttl?: int, wait?: int, retry_delay?: int, prefix?: string, connect_timeout?: int, read_timeout?: int, spin_us?: int, persistent?: bool, reentrant?: bool, auto_release?: bool, fair?: bool, watchdog?: bool, tls_ca?: string, tls_cert?: string, tls_key?: string, tls_verify_peer?: bool, tls_server_name?: string} $options
         */
        public static function multi(array $keys, #[\SensitiveParameter] array $options = []): RLock {}
    }

    /**
     * A counting semaphore on Redis: $permits permits shared by every process that names it,
     * each holder's with a lease (option "ttl"); waiters are served first come, first served.
     */
    final class RSemaphore implements RLock\SemaphoreInterface
    {
        /**
         * Describe the semaphore $name of $permits permits. Nothing is sent to Redis until it is used.
         *
         * @param array{server?: string, cluster?: list<string>, sentinel?: list<string>, service?: string, ttl?: int, wait?: int, retry_delay?: int, prefix?: string, connect_timeout?: int, read_timeout?: int, spin_us?: int, persistent?: bool, reentrant?: bool, auto_release?: bool, fair?: bool, watchdog?: bool, sync_replicas?: int, tls_ca?: string, tls_cert?: string, tls_key?: string, tls_verify_peer?: bool, tls_server_name?: string} $options the options of RLock, but "servers" and "fencing"
         */
        public function __construct(string $name, int $permits, #[\SensitiveParameter] array $options = []) {}

        /**
         * Take $permits permits (all or none), blocking up to $waitMs (default: option "wait",
         * 0 to 2147483647 ms).
         */
        public function acquire(int $permits = 1, ?int $waitMs = null): bool {}

        /** Take $permits permits without blocking: one round trip. */
        public function tryAcquire(int $permits = 1): bool {}

        /**
         * Give back every permit the calling execution context holds through this object; false
         * when they were no longer ours. Throws RLockException when it holds none while another
         * context (Fiber) does: permits are held per context, as a lock's holds are.
         */
        public function release(): bool {}

        /** Reset the lease of our permits to $ttlMs (default: option "ttl"); false when they were lost. */
        public function extend(?int $ttlMs = null): bool {}

        /** The permits this object holds, as it counts them (no round trip). */
        public function held(): int {}

        /** Whether this object holds permits whose lease has not ended, asked of Redis. */
        public function isAcquired(): bool {}

        /** The permits free now, asked of Redis. */
        public function available(): int {}

        /**
         * Acquire $permits (or throw RLockTimeoutException), call $fn($this), release, and return
         * what $fn returned; throws RLockLostException when the permits expired before the release.
         */
        public function synchronized(callable $fn, int $permits = 1, ?int $waitMs = null): mixed {}

        /**
         * Call $fn($this) as soon as the watchdog (option "watchdog") finds permits of this
         * object's gone, at the next opcode of whatever runs then, as RLock::onLost() does.
         * Replaces the callback set before; null removes it. Returns $this.
         */
        public function onLost(?callable $fn): static {}
    }

    /**
     * A read-write lock on Redis: many readers or one writer. A waiting writer keeps new
     * readers out; a writer's release lets every waiting reader in, the last reader out the
     * first waiting writer.
     */
    final class RReadWriteLock implements RLock\ReadWriteLockInterface
    {
        /**
         * Describe the read-write lock on $key. Nothing is sent to Redis until a side is used.
         *
         * @param array{server?: string, cluster?: list<string>, sentinel?: list<string>, service?: string, ttl?: int, wait?: int, retry_delay?: int, prefix?: string, connect_timeout?: int, read_timeout?: int, spin_us?: int, persistent?: bool, reentrant?: bool, auto_release?: bool, fencing?: bool, fair?: bool, watchdog?: bool, sync_replicas?: int, tls_ca?: string, tls_cert?: string, tls_key?: string, tls_verify_peer?: bool, tls_server_name?: string} $options RLock's options; "servers" (Redlock) is not supported
         */
        public function __construct(string $key, #[\SensitiveParameter] array $options = []) {}

        /** The shared side: an RLock that many hold at once, while no writer does. */
        public function readLock(): RLock {}

        /** The exclusive side: an RLock that one holds, while no reader does. */
        public function writeLock(): RLock {}

        /**
         * Set $fn as the onLost() callback of both sides (RLock::onLost()): $fn($side) runs as
         * soon as the watchdog finds a hold of either side gone. null removes it. Returns $this.
         */
        public function onLost(?callable $fn): static {}
    }

    /**
     * A rate limiter on Redis (GCRA, on the server's clock): $limit permits per $periodMs, at
     * most "burst" of them (default $limit) at once, for every process that names it. Each
     * decision is one script call; the limit's one key expires once its permits are all due
     * again.
     */
    final class RRateLimiter implements RLock\RateLimiterInterface
    {
        /**
         * Describe the limit $name: $limit permits per $periodMs ms (at least 100: a number
         * of seconds is refused). Nothing is sent to Redis until it is used.
         *
         * @param array{server?: string, cluster?: list<string>, sentinel?: list<string>, service?: string, wait?: int, retry_delay?: int, prefix?: string, connect_timeout?: int, read_timeout?: int, spin_us?: int, persistent?: bool, fair?: bool, tls_ca?: string, tls_cert?: string, tls_key?: string, tls_verify_peer?: bool, tls_server_name?: string, burst?: int} $options "burst" (the permits taken at once, default $limit), "fair"
         *                       (acquire() reserves its permits, served in order of arrival),
         *                       "wait", and the connection options of RLock; not "servers",
         *                       nor the lock's own (ttl, watchdog, reentrant, auto_release,
         *                       fencing, sync_replicas)
         */
        public function __construct(string $name, int $limit, int $periodMs, #[\SensitiveParameter] array $options = []) {}

        /** Take $n permits (1 to the burst) if they are due now: one round trip, never blocks. */
        public function tryAcquire(int $n = 1): bool {}

        /**
         * Take $n permits, sleeping until they are due when that is within $waitMs
         * (default: option "wait", 0 to 2147483647 ms): never polls. false at once when they
         * are not due within $waitMs (nothing taken). With "fair" (the default) the permits are
         * reserved by the one round trip that finds them due in time, so waiters are served in
         * order of arrival; without, the script is run again when they are due.
         */
        public function acquire(int $n = 1, ?int $waitMs = null): bool {}

        /** The ms until the permits the last refusal of this object refused are due; 0 after an admission. */
        public function retryAfter(): int {}

        /** The permits that would be admitted now, asked of Redis. */
        public function remaining(): int {}

        /** Forget every permit taken of the limit: the whole burst is free again. */
        public function reset(): void {}

        /**
         * Take $n permits of each of $limiters, all or none, in one script that never waits: a refusal
         * takes nothing from any (each limiter's retryAfter() says when its own are due). The
         * limits must be on one server, and on a Cluster share one slot (one {hash tag}).
         *
         * @param list<RRateLimiter> $limiters
         */
        public static function all(array $limiters, int $n = 1): bool {}
    }

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
        public function getResult(): mixed {}
    }

    /**
     * The pool's lock statistics (shared memory: every process of one php-fpm pool, or forked
     * from one CLI parent): totals, wait histogram, holds and waiters now, servers, rate
     * limiters, and with $keys the most active keys (1000 at most) and the rest summed as
     * "other". $pool: those of the running php-fpm pool of that name instead (from a shell,
     * as the pool's user or root).
     */
    function rlock_status(bool $keys = true, ?string $pool = null): array {}

    /** The same statistics in Prometheus' text exposition format (0.0.4); $pool as rlock_status(). */
    function rlock_metrics(?string $pool = null): string {}

    /** Every counter and histogram to zero and the keys forgotten; holds and waiters stay. */
    function rlock_status_reset(): void {}
}
