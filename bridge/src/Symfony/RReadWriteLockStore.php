<?php

declare(strict_types=1);

namespace RLock\Bridge\Symfony;

use RLock;
use RReadWriteLock;
use Symfony\Component\Lock\BlockingSharedLockStoreInterface;
use Symfony\Component\Lock\Key;

/**
 * A symfony/lock store with shared locks over rlock's RReadWriteLock:
 * `new LockFactory(new RReadWriteLockStore(['server' => ...]))`, then acquireRead() for
 * the read side and acquire() for the write side. Readers share, a writer is alone, a
 * waiting writer keeps new readers out; blocking acquires are woken by the release that
 * lets them in. A Key that reads and then saves (or the other way round) gives its side
 * back and takes the other: promotion is not atomic.
 */
final class RReadWriteLockStore extends AbstractRLockStore implements BlockingSharedLockStoreInterface
{
    public function saveRead(Key $key): void
    {
        $this->take($key, 0, true);
    }

    public function waitAndSaveRead(Key $key): void
    {
        $this->take($key, $this->waitMs, true);
    }

    protected function newLock(string $resource, bool $read): RLock
    {
        $rw = new RReadWriteLock($resource, $this->options);
        return $read ? $rw->readLock() : $rw->writeLock();
    }
}
