<?php
// rlock: a fresh RLock per cycle, as a web request would make one.

return function (array $cfg): Closure {
    if (!class_exists('RLock')) {
        throw new RuntimeException('the rlock extension is not loaded');
    }
    $options = [
        'server' => "redis://{$cfg['host']}:{$cfg['port']}",
        'ttl' => $cfg['ttl_ms'],
        'wait' => $cfg['wait_ms'],
    ];

    return function (string $key) use ($options): array {
        $lock = new RLock($key, $options);
        return [fn (): bool => $lock->lock(), fn (): bool => $lock->unlock()];
    };
};
