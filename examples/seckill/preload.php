<?php
/*
 * opcache.preload for the demo's php-fpm, as symfony's documentation advises for production:
 * the classes of the framework rows (symfony/lock, Laravel's cache and Redis locks, and
 * rlock's bridge over them) are compiled and linked once when php-fpm starts, not loaded
 * by the autoloaders in every request; the rows' adapters require the packages' autoloaders
 * only when a class is missing from here (bench_autoload() in bench/common.php), as an app
 * with composer's authoritative class map does. Every framework row gets it, the peers' and
 * rlock's bridge alike; rlock's own row has no PHP classes to load. A class missing here
 * costs speed, not correctness.
 */

declare(strict_types=1);

require '/usr/share/php/Symfony/Component/Lock/autoload.php';
require '/usr/share/php/Illuminate/Cache/autoload.php';
require '/usr/share/php/Illuminate/Redis/autoload.php';
require __DIR__ . '/../../bridge/autoload.php';

foreach ([
    Symfony\Component\Lock\LockFactory::class,
    Symfony\Component\Lock\Lock::class,
    Symfony\Component\Lock\Key::class,
    Symfony\Component\Lock\Store\RedisStore::class,
    Symfony\Component\Lock\Exception\LockConflictedException::class,
    Psr\Log\NullLogger::class,
    Psr\Log\LogLevel::class,
    RLock\Bridge\Symfony\RLockStore::class,
    Illuminate\Redis\RedisManager::class,
    Illuminate\Support\ConfigurationUrlParser::class,
    Illuminate\Support\Arr::class,
    Illuminate\Cache\LuaScripts::class,
    Carbon\CarbonTimeZone::class,
    Illuminate\Support\Carbon::class,
    Illuminate\Redis\Connectors\PhpRedisConnector::class,
    Illuminate\Redis\Connections\PhpRedisConnection::class,
    Illuminate\Cache\RedisStore::class,
    Illuminate\Cache\PhpRedisLock::class,
    Illuminate\Cache\ArrayStore::class,
    Illuminate\Contracts\Cache\LockTimeoutException::class,
    Illuminate\Support\Str::class,
    RLock\Bridge\Laravel\RLockStore::class,
    RLock\Bridge\Laravel\RLockLock::class,
] as $class) {
    class_exists($class);
}
