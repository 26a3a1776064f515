<?php
// One contending process: M critical sections on one key. Each section is a
// read-modify-write of a counter on its own connection to the counter server
// (GET, wait C us, SET value+1), so a broken lock shows as lost updates.
// With BENCH_SPIN=1 the C us are busy-waited instead of slept; BENCH_THINK_US
// adds a pause between sections (the rest of a web request), 0 by default.
// Writes, per section, hrtime ns of: asked for the lock, got it, left the
// section (before unlock); got = 0 when lock() failed.

declare(strict_types=1);

/**
 * @param resource $signal socket to the driver: 'r' warm and ready, 'd' done
 * @param resource $go     read end of a gate that opens on EOF
 * @param resource $quit   read end of the gate to exit by
 */
function bench_worker(Closure $adapter, array $cfg, string $key, int $sections,
    int $sectionUs, string $file, $signal, $go, $quit): void
{
    $new = $adapter($cfg);
    $counter = bench_redis($cfg['host'], $cfg['counter_port']);
    $spin = (bool) getenv('BENCH_SPIN');
    $thinkUs = (int) getenv('BENCH_THINK_US');

    // One cycle first, so connections and script caches are warm for all.
    [$lock, $unlock] = $new($key);
    if ($lock()) {
        $unlock();
    }

    fwrite($signal, 'r');
    fread($go, 1);

    $stamps = [];
    $errors = 0;
    for ($i = 0; $i < $sections; $i++) {
        [$lock, $unlock] = $new($key);
        $asked = hrtime(true);
        try {
            $got = $lock();
        } catch (Throwable $e) {
            $got = false;
            if ($errors++ === 0) {
                fwrite(STDERR, "worker: " . get_class($e) . ": " . $e->getMessage() . "\n");
            }
        }
        if (!$got) {
            array_push($stamps, $asked, 0, 0);
            continue;
        }
        $entered = hrtime(true);

        $value = (int) $counter->get('counter');
        if ($spin) {
            for ($until = hrtime(true) + $sectionUs * 1000; hrtime(true) < $until;);
        } else {
            usleep($sectionUs);
        }
        $counter->set('counter', $value + 1);

        $left = hrtime(true);
        try {
            $unlock();
        } catch (Throwable $e) {
            if ($errors++ === 0) {
                fwrite(STDERR, "worker: " . get_class($e) . ": " . $e->getMessage() . "\n");
            }
        }
        array_push($stamps, $asked, $entered, $left);
        if ($thinkUs > 0) {
            usleep($thinkUs);
        }
    }

    file_put_contents($file, pack('J*', ...$stamps));
    fwrite($signal, 'd');
    fread($quit, 1);
}
