<?php
// The classic userland lock with phpredis, as most PHP code writes it:
// SET key token NX PX ttl, retry after usleep(5000) until the wait deadline,
// release with EVAL of a compare-and-delete script.

return function (array $cfg): Closure {
    $redis = bench_lock_redis($cfg);

    return function (string $key) use ($redis, $cfg): array {
        $token = bin2hex(random_bytes(16));

        $lock = function () use ($redis, $key, $token, $cfg): bool {
            $deadline = hrtime(true) + $cfg['wait_ms'] * 1000000;
            while (!$redis->set($key, $token, ['NX', 'PX' => $cfg['ttl_ms']])) {
                if (hrtime(true) >= $deadline) {
                    return false;
                }
                usleep(5000);
            }
            return true;
        };
        $unlock = function () use ($redis, $key, $token): bool {
            return (bool) $redis->eval(BENCH_RELEASE_LUA, [$key, $token], 1);
        };
        return [$lock, $unlock];
    };
};
