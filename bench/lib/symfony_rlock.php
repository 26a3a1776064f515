<?php
// symfony/lock over rlock's bridge: symfony.php's code with one line of configuration
// changed, the store. RLock\Bridge\Symfony\RLockStore is a BlockingStoreInterface, so
// Lock::acquire(true) calls its waitAndSave(), which waits in RLock::lock() (woken by
// the release) instead of retrying save() every 100 ms.

use RLock\Bridge\Symfony\RLockStore;
use Symfony\Component\Lock\LockFactory;

// the framework's classes, as an app built for production loads them (bench_autoload())
bench_autoload('/usr/share/php/Symfony/Component/Lock/autoload.php', dirname(__DIR__, 2) . '/bridge/autoload.php');

return function (array $cfg): Closure {
    $factory = new LockFactory(new RLockStore(bench_rlock_options($cfg)));

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
