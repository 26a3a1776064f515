<?php
// The floor of an owner-checked FIFO lock on Redis (issue 30's, examples/swoole/floor_lock.php's
// scripts), as a peer of the php-fpm comparison: lock() is one script (SET NX, or RPUSH our token
// on the queue) and a BLPOP on a grant list of our own, sent in one write; unlock() one script
// (the owner check, then LPOP the next waiter, SET it as owner and RPUSH its grant, or DEL). Not
// a lock to use: no lease on the queue or the grants (a waiter that gives up or dies stays
// queued, and the key is handed to it), no fencing, no reentrancy. Where rlock's guarantees
// cost more than the least an owner check and a queue cost.

require_once __DIR__ . '/../../examples/swoole/floor_lock.php';

return [
    'connect' => function (array $cfg): Closure {
        $redis = bench_lock_redis($cfg);
        $seconds = bench_blpop_seconds($redis, $cfg);
        $acquire = sha1(FLOOR_ACQUIRE);
        $release = sha1(FLOOR_RELEASE);

        return function (string $key) use ($redis, $seconds, $cfg, $acquire, $release): array {
            $token = bin2hex(random_bytes(16));
            $keys = [$key, "$key:queue", "$key:grant:$token"];
            return [
                function () use ($redis, $seconds, $cfg, $acquire, $keys, $token): bool {
                    $redis->multi(Redis::PIPELINE);
                    $redis->evalSha($acquire, [...$keys, $token, $cfg['ttl_ms']], 3);
                    $redis->blPop([$keys[2]], $seconds);
                    [, $popped] = $redis->exec();
                    return (bool) $popped;
                },
                fn (): bool => $redis->evalSha($release, [$keys[0], $keys[1], $token, $cfg['ttl_ms']], 2) > 0,
            ];
        };
    },
    // The scripts loaded on the lock server before anyone locks.
    'prepare' => function (array $cfg, string $key): void {
        $redis = bench_redis($cfg['host'], $cfg['port']);
        $redis->script('load', FLOOR_ACQUIRE);
        $redis->script('load', FLOOR_RELEASE);
        $redis->del($key, "$key:queue");
        $redis->close();
    },
];
