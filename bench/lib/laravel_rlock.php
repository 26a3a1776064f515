<?php
// Laravel's lock over rlock's bridge: laravel.php's code with the store changed.
// RLock\Bridge\Laravel\RLockStore::lock() gives an RLockLock, whose block() waits in
// RLock::lock() (woken by the release) instead of retrying every 250 ms.

use Illuminate\Contracts\Cache\LockTimeoutException;
use RLock\Bridge\Laravel\RLockStore;

// the framework's classes, as an app built for production loads them (bench_autoload())
bench_autoload('/usr/share/php/Illuminate/Cache/autoload.php', dirname(__DIR__, 2) . '/bridge/autoload.php');

return function (array $cfg): Closure {
    $store = new RLockStore(bench_rlock_options($cfg));
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
