<?php

declare(strict_types=1);

namespace RLock\Bridge\Symfony;

use RLock\Bridge\Options;
use RSemaphore;
use Symfony\Component\Semaphore\Exception\InvalidArgumentException;
use Symfony\Component\Semaphore\Exception\SemaphoreAcquiringException;
use Symfony\Component\Semaphore\Exception\SemaphoreExpiredException;
use Symfony\Component\Semaphore\Key;
use Symfony\Component\Semaphore\PersistingStoreInterface;

/**
 * A symfony/semaphore store over rlock's RSemaphore:
 * `new SemaphoreFactory(new RSemaphoreStore(['server' => ...]))`.
 *
 * A Key's resource is the semaphore's name and its limit the permits; a save() takes the
 * Key's weight in permits, each holder's with a lease (the ttl symfony asks for), given
 * back on delete() (symfony's Semaphore::release(), and its destructor with autoRelease) or
 * when the lease runs out: never by rlock when an object or the request ends. Each saved Key
 * keeps its own RSemaphore in its state (an RSemaphore cannot be serialized): exists(),
 * putOffExpiration() and delete() act on that holder's permits only.
 */
final class RSemaphoreStore implements PersistingStoreInterface
{
    private array $options;

    /** @param array $options RSemaphore's options (server, prefix, ...); the lease is symfony's ttl */
    public function __construct(#[\SensitiveParameter] array $options = [])
    {
        $this->options = ['auto_release' => false] + $options;
        // bad options fail here, as RSemaphore's constructor names them, not at the first save
        new RSemaphore('rlock-bridge', 1, $this->options);
    }

    public function save(Key $key, float $ttlInSecond): void
    {
        $ttlMs = self::ttlMs($ttlInSecond);
        $semaphore = $this->semaphoreOf($key);
        if ($semaphore !== null && $semaphore->isAcquired()) {
            // symfony's rule: a Key that holds keeps its permits (asked of Redis: a lease that
            // ended holds nothing)
            return;
        }
        $semaphore = new RSemaphore((string) $key, $key->getLimit(), ['ttl' => $ttlMs] + $this->options);
        if (!$semaphore->tryAcquire($key->getWeight())) {
            throw new SemaphoreAcquiringException($key, 'the semaphore is full');
        }
        $key->setState(self::class, $semaphore);
    }

    public function delete(Key $key): void
    {
        $semaphore = $this->semaphoreOf($key);
        if ($semaphore !== null) {
            $semaphore->release();
            $key->removeState(self::class);
        }
    }

    public function exists(Key $key): bool
    {
        $semaphore = $this->semaphoreOf($key);
        return $semaphore !== null && $semaphore->isAcquired();
    }

    public function putOffExpiration(Key $key, float $ttlInSecond): void
    {
        $semaphore = $this->semaphoreOf($key);
        if ($semaphore === null || !$semaphore->extend(self::ttlMs($ttlInSecond))) {
            throw new SemaphoreExpiredException($key, 'its permits are no longer held');
        }
    }

    private function semaphoreOf(Key $key): ?RSemaphore
    {
        return $key->hasState(self::class) ? $key->getState(self::class) : null;
    }

    private static function ttlMs(float $ttlInSecond): int
    {
        if ($ttlInSecond <= 0) {
            throw new InvalidArgumentException("The TTL should be greater than 0, '$ttlInSecond' given.");
        }
        // rlock refuses a lease under 100 ms: a shorter one asked in seconds is held 100 ms
        try {
            return Options::secondsToMs($ttlInSecond, 'A TTL', Options::MS_FLOOR);
        } catch (\InvalidArgumentException $e) {
            throw new InvalidArgumentException($e->getMessage(), 0, $e);
        }
    }
}
