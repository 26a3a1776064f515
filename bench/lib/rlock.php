<?php
// rlock: a fresh RLock per cycle, as a web request would make one.

return function (array $cfg): Closure {
    $options = bench_rlock_options($cfg);

    return function (string $key) use ($options): array {
        $lock = new RLock($key, $options);
        return [fn (): bool => $lock->lock(), fn (): bool => $lock->unlock()];
    };
};
