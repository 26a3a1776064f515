<?php
// Counts what MONITOR shows while a watched pass runs, split into commands
// clients sent and commands scripts ran ("lua" in MONITOR's source field),
// until the driver sends ECHO of the stop marker. One per watched server.

declare(strict_types=1);

const BENCH_MONITOR_STOP = 'bench-monitor-stop';

/** @param resource $signal socket to the driver: 'm' once MONITOR is on */
function bench_monitor(array $cfg, int $port, string $file, $signal): void
{
    $s = stream_socket_client("tcp://{$cfg['host']}:$port", $errno, $error, 2.0);
    if (!$s) {
        throw new RuntimeException("monitor: $error");
    }
    fwrite($s, "MONITOR\r\n");
    if (trim((string) fgets($s)) !== '+OK') {
        throw new RuntimeException('monitor: MONITOR refused');
    }
    fwrite($signal, 'm');

    $seen = ['client' => [], 'lua' => []];
    // +1700000000.123456 [0 127.0.0.1:54321] "SET" "key" ...  or  [0 lua] "get" ...
    while (($line = fgets($s)) !== false) {
        if (str_contains($line, '"' . BENCH_MONITOR_STOP . '"')) {
            break;
        }
        if (!preg_match('/^\+\d+\.\d+ \[\d+ ([^\]]+)\] "([^"]+)"/', $line, $m)) {
            continue;
        }
        $from = $m[1] === 'lua' ? 'lua' : 'client';
        $cmd = strtolower($m[2]);
        $seen[$from][$cmd] = ($seen[$from][$cmd] ?? 0) + 1;
    }
    file_put_contents($file, json_encode($seen));
}
