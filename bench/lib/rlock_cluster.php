<?php
// rlock on Redis Cluster: 'cluster' => the seeds of the 3-master cluster run.sh
// makes (BENCH_CLUSTER_PORTS). A fresh RLock per cycle, as a web request would make one.

return function (array $cfg): Closure {
    if (!class_exists('RLock')) {
        throw new RuntimeException('the rlock extension is not loaded');
    }
    if (!$cfg['cluster_ports']) {
        throw new RuntimeException('no cluster nodes (BENCH_CLUSTER_PORTS is empty)');
    }
    $options = [
        'cluster' => array_map(fn (int $port) => "{$cfg['host']}:$port", $cfg['cluster_ports']),
        'ttl' => $cfg['ttl_ms'],
        'wait' => $cfg['wait_ms'],
    ];

    return function (string $key) use ($options): array {
        $lock = new RLock($key, $options);
        return [fn (): bool => $lock->lock(), fn (): bool => $lock->unlock()];
    };
};
