<?php
// Laravel 8's lock, the way its documentation shows, without the framework
// around it: Cache::lock($name, $seconds)->block($wait) is RedisStore::lock()
// on an Illuminate\Redis connection (phpredis), a PhpRedisLock: SET NX EX,
// retried every 250 ms until block()'s whole seconds run out
// (LockTimeoutException), released with EVAL of a compare-and-delete script.

use Illuminate\Cache\RedisStore;
use Illuminate\Contracts\Cache\LockTimeoutException;
use Illuminate\Redis\RedisManager;

// the framework's classes, as an app built for production loads them (bench_autoload())
bench_autoload('/usr/share/php/Illuminate/Cache/autoload.php', '/usr/share/php/Illuminate/Redis/autoload.php');

return function (array $cfg): Closure {
    $redis = new RedisManager(null, 'phpredis', ['default' => [
        'host' => $cfg['host'],
        'port' => $cfg['port'],
        'timeout' => 2.0,
        'persistent' => $cfg['persistent'] ?? false,
    ]]);
    $store = new RedisStore($redis);
    $ttl = max(1, intdiv($cfg['ttl_ms'] + 999, 1000));
    $wait = max(1, intdiv($cfg['wait_ms'], 1000));

    return function (string $key) use ($store, $ttl, $wait): array {
        $lock = $store->lock($key, $ttl);

        return [
            function () use ($lock, $wait): bool {
                try {
                    return $lock->block($wait);
                } catch (LockTimeoutException) {
                    return false;
                }
            },
            fn (): bool => $lock->release(),
        ];
    };
};
