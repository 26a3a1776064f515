<?php
// The same classic lock as phpredis.php, through Predis (pure PHP client).

require_once '/usr/share/php/Predis/autoload.php';

return function (array $cfg): Closure {
    $redis = new Predis\Client(['host' => $cfg['host'], 'port' => $cfg['port']]);
    $redis->connect();

    return function (string $key) use ($redis, $cfg): array {
        $token = bin2hex(random_bytes(16));

        $lock = function () use ($redis, $key, $token, $cfg): bool {
            $deadline = hrtime(true) + $cfg['wait_ms'] * 1000000;
            while (!$redis->set($key, $token, 'PX', $cfg['ttl_ms'], 'NX')) {
                if (hrtime(true) >= $deadline) {
                    return false;
                }
                usleep(5000);
            }
            return true;
        };
        $unlock = function () use ($redis, $key, $token): bool {
            return (bool) $redis->eval(BENCH_RELEASE_LUA, 1, $key, $token);
        };
        return [$lock, $unlock];
    };
};
