<?php
/*
 * Seed 001's demo (a Swoole\Timer ticking once a second stands for a user's request, the
 * request guarded by a Redis lock) with rlock in place of its SET NX + Lua class:
 *
 *   php -d extension=swoole.so -d extension=rlock.so examples/swoole/timer.php [TICKS] [DSN]
 *
 * TICKS: stop after so many ticks (0, the default: tick until stopped). DSN: the Redis
 * server (redis://127.0.0.1:6379). Run two of them side by side: each second one is served,
 * the other told to try again, as the seed shows; kill one while it holds and the other is
 * served again within the lock's ttl.
 */

declare(strict_types=1);

use Swoole\Timer;

// Every wait of rlock yields the coroutine it runs in: the timer keeps ticking.
Swoole\Runtime::enableCoroutine(SWOOLE_HOOK_ALL);

$ticks = (int) ($argv[1] ?? 0);
$dsn = $argv[2] ?? 'redis://127.0.0.1:6379';

Timer::tick(1000, function (int $timer) use (&$ticks, $dsn) {
    // a lock per request, as the seed's Lock('kill'); 5 s as its $expire
    $lock = new RLock('kill', ['server' => $dsn, 'ttl' => 5000]);
    if ($lock->tryLock()) {
        echo '[' . date('Y-m-d H:i:s') . '] request served' . PHP_EOL;
        // the business, then the release: the token is checked in Redis, as the seed's Lua does
        $lock->unlock();
    } else {
        echo '[' . date('Y-m-d H:i:s') . '] too many requests, try again later' . PHP_EOL;
    }
    if ($ticks > 0 && --$ticks === 0) {
        Timer::clear($timer);
    }
});
