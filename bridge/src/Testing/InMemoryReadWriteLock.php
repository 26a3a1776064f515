<?php

declare(strict_types=1);

namespace RLock\Bridge\Testing;

use RLock\Bridge\Options;
use RLock\ReadWriteLockInterface;

/**
 * An RReadWriteLock in memory (see InMemoryLock): readers share, a writer is alone; a
 * context that writes may read too (reentrant); a context that reads and asks to write gets an
 * RLockException at once (a writer waits for every reader, its own included), as from
 * RReadWriteLock. Each side is one InMemoryLock, the same object at every call.
 */
class InMemoryReadWriteLock implements ReadWriteLockInterface
{
    private InMemoryLock $read;
    private InMemoryLock $write;

    /** @param array<string, mixed> $options RReadWriteLock's options (see InMemoryLock) */
    public function __construct(string $key, array $options = [], ?InMemoryBackend $backend = null)
    {
        if ($key === '') {
            throw new \ValueError(static::class . '::__construct(): Argument #1 ($key) must not be empty');
        }
        $options = Options::check($options, 'RReadWriteLock', static::class . '::__construct', 2);
        $backend ??= InMemoryBackend::shared();
        $this->read = InMemoryLock::side($key, false, $options, $backend);
        $this->write = InMemoryLock::side($key, true, $options, $backend);
    }

    public function readLock(): InMemoryLock
    {
        return $this->read;
    }

    public function writeLock(): InMemoryLock
    {
        return $this->write;
    }

    /** $fn($side) when a hold of either side is found gone. */
    public function onLost(?callable $fn): static
    {
        $this->read->onLost($fn);
        $this->write->onLost($fn);
        return $this;
    }
}
