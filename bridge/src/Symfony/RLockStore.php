<?php

declare(strict_types=1);

namespace RLock\Bridge\Symfony;

use RLock;

/**
 * A symfony/lock store over rlock's mutex: `new LockFactory(new RLockStore(['server' => ...]))`.
 *
 * Exclusive locks only (Lock::acquireRead() falls back to an exclusive lock, as symfony does
 * for a store without shared locks): RReadWriteLockStore has read locks too.
 */
final class RLockStore extends AbstractRLockStore
{
    protected function newLock(string $resource, bool $read): RLock
    {
        return new RLock($resource, $this->options);
    }
}
