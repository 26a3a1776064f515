<?php
// php-lock/lock 2.2 (malkusch): PHPRedisMutex, a Redlock over the given
// phpredis connections (here one). Its public API is synchronized($code);
// the small subclass below calls the same protected lock()/unlock() that
// synchronized() does, so the worker can time enter and exit like the others.
// Lock TTL and wait deadline are one int of seconds ($timeout; TTL is +1 s);
// retries back off from 10 ms, x1.25 per attempt, up to 0.5 s, jittered.

require_once '/usr/share/php/Malkusch/Lock/autoload.php';

use malkusch\lock\mutex\PHPRedisMutex;

final class BenchPHPRedisMutex extends PHPRedisMutex
{
    public function enter(): bool
    {
        $this->lock();
        return true;
    }

    public function leave(): bool
    {
        $this->unlock();
        return true;
    }
}

return function (array $cfg): Closure {
    $redis = bench_lock_redis($cfg);
    $seconds = max(1, intdiv($cfg['wait_ms'], 1000));

    return function (string $key) use ($redis, $seconds): array {
        $mutex = new BenchPHPRedisMutex([$redis], $key, $seconds);
        return [fn (): bool => $mutex->enter(), fn (): bool => $mutex->leave()];
    };
};
