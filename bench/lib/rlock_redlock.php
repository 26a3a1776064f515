<?php
// rlock as Redlock: 'servers' => the 5 independent masters run.sh starts
// (BENCH_REDLOCK_PORTS). A fresh RLock per cycle, as a web request would make one.

return function (array $cfg): Closure {
    if (!class_exists('RLock')) {
        throw new RuntimeException('the rlock extension is not loaded');
    }
    if (!$cfg['redlock_ports']) {
        throw new RuntimeException('no Redlock masters (BENCH_REDLOCK_PORTS is empty)');
    }
    $options = [
        'servers' => array_map(fn (int $port) => "redis://{$cfg['host']}:$port", $cfg['redlock_ports']),
        'ttl' => $cfg['ttl_ms'],
        'wait' => $cfg['wait_ms'],
    ];

    return function (string $key) use ($options): array {
        $lock = new RLock($key, $options);
        return [fn (): bool => $lock->lock(), fn (): bool => $lock->unlock()];
    };
};
