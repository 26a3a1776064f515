<?php
// The baton: the floor of a hand-over lock, and unsafe. One token lives in a
// Redis list; lock() is BLPOP (the process that pops it holds the lock, the
// others block in Redis until a push wakes one), unlock() is RPUSH of the token
// back. No TTL, no owner check: a process that dies holding the baton loses it
// for everyone, and anyone can push a second one. Two commands per section and
// no polling, the least a lock that queues its waiters can do.

return [
    'connect' => function (array $cfg): Closure {
        $redis = bench_lock_redis($cfg);
        $seconds = bench_blpop_seconds($redis, $cfg);

        return function (string $key) use ($redis, $seconds): array {
            return [
                fn (): bool => (bool) $redis->blPop([$key], $seconds),
                fn (): bool => $redis->rPush($key, 'baton') > 0,
            ];
        };
    },
    // One token in the list, before anyone locks.
    'prepare' => function (array $cfg, string $key): void {
        $redis = bench_redis($cfg['host'], $cfg['port']);
        $redis->multi()->del($key)->rPush($key, 'baton')->exec();
        $redis->close();
    },
];
