<?php

declare(strict_types=1);

namespace RLock\Bridge\Laravel;

use Illuminate\Cache\ArrayStore;
use Illuminate\Contracts\Cache\LockProvider;
use Illuminate\Contracts\Cache\Store;

/**
 * A cache store whose locks are rlock's (Cache::lock(), Cache::restoreLock()); the cache
 * itself is another store's (default: an ArrayStore), to which every other call goes.
 */
class RLockStore implements Store, LockProvider
{
    private array $options;
    private Store $cache;

    public function __construct(#[\SensitiveParameter] array $options = [], ?Store $cache = null)
    {
        $this->options = $options;
        $this->cache = $cache ?? new ArrayStore();
    }

    public function lock($name, $seconds = 0, $owner = null)
    {
        return new RLockLock($name, $seconds, $owner, $this->options);
    }

    public function restoreLock($name, $owner)
    {
        return $this->lock($name, 0, $owner);
    }

    public function get($key)
    {
        return $this->cache->get($key);
    }

    public function many(array $keys)
    {
        return $this->cache->many($keys);
    }

    public function put($key, $value, $seconds)
    {
        return $this->cache->put($key, $value, $seconds);
    }

    public function putMany(array $values, $seconds)
    {
        return $this->cache->putMany($values, $seconds);
    }

    public function increment($key, $value = 1)
    {
        return $this->cache->increment($key, $value);
    }

    public function decrement($key, $value = 1)
    {
        return $this->cache->decrement($key, $value);
    }

    public function forever($key, $value)
    {
        return $this->cache->forever($key, $value);
    }

    public function forget($key)
    {
        return $this->cache->forget($key);
    }

    public function flush()
    {
        return $this->cache->flush();
    }

    public function getPrefix()
    {
        return $this->cache->getPrefix();
    }
}
