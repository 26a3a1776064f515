<?php
// symfony/lock 5.4: LockFactory over RedisStore (phpredis connection), the
// documented way: createLock($resource, $ttl) then a blocking acquire(true).
// RedisStore is not a BlockingStoreInterface, so Lock::acquire(true) retries
// save() after usleep(100 ms +- 10 ms), with no deadline of its own.

use Symfony\Component\Lock\LockFactory;
use Symfony\Component\Lock\Store\RedisStore;

// the framework's classes, as an app built for production loads them (bench_autoload())
bench_autoload('/usr/share/php/Symfony/Component/Lock/autoload.php');

return function (array $cfg): Closure {
    $redis = bench_lock_redis($cfg);
    $factory = new LockFactory(new RedisStore($redis, $cfg['ttl_ms'] / 1000));

    return function (string $key) use ($factory, $cfg): array {
        $lock = $factory->createLock($key, $cfg['ttl_ms'] / 1000);

        return [
            fn (): bool => $lock->acquire(true),
            function () use ($lock): bool {
                $lock->release();
                return true;
            },
        ];
    };
};
