<?php
/* How many round trips the watchdog costs: hold N locks with the watchdog and count, from the
 * server's INFO commandstats, the script calls it makes over a few renewal periods.
 *
 *   php -d extension=modules/rlock.so bench/watchdog.php [N=1000] [ttl_ms=3000] [periods=6] [dsn]
 *
 * Run it against a server nothing else uses: every EVAL/EVALSHA in the window is counted. */

[, $n, $ttl, $periods, $dsn] = $argv + [1 => 1000, 2 => 3000, 3 => 6, 4 => 'redis://127.0.0.1:6379'];
[$n, $ttl, $periods] = [(int) $n, (int) $ttl, (int) $periods];

function script_calls(string $dsn): int
{
    $u = parse_url($dsn);
    $s = stream_socket_client('tcp://' . ($u['host'] ?? '127.0.0.1') . ':' . ($u['port'] ?? 6379), $errno, $errstr, 2)
        or exit("cannot reach $dsn: $errstr\n");
    fwrite($s, "*2\r\n\$4\r\nINFO\r\n\$12\r\ncommandstats\r\n");
    $len = (int) substr(fgets($s), 1);
    $info = '';
    while (strlen($info) < $len + 2) {
        $info .= fread($s, $len + 2 - strlen($info));
    }
    preg_match_all('/^cmdstat_(?:eval|evalsha):calls=(\d+)/m', $info, $m);
    return array_sum(array_map('intval', $m[1]));
}

function watchdog_stats(): array
{
    ob_start();
    phpinfo(INFO_MODULES);
    preg_match_all('/^Watchdog ([^=]*?) => (.*)$/m', ob_get_clean(), $m);
    return array_combine($m[1], $m[2]);
}

$prefix = 'rlock-bench-watchdog:' . getmypid() . ':';
$locks = [];
$t = hrtime(true);
for ($i = 0; $i < $n; $i++) {
    $locks[$i] = new RLock("k$i", ['server' => $dsn, 'prefix' => $prefix, 'ttl' => $ttl, 'watchdog' => true]);
    $locks[$i]->tryLock() or exit("could not take k$i\n");
}
printf("took %d locks in %.0f ms\n", $n, (hrtime(true) - $t) / 1e6);

$period = intdiv($ttl, 3);
usleep(($period + intdiv($period, 2)) * 1000);  // past the first renewal, which loads the script
$before = script_calls($dsn);
$stats0 = watchdog_stats();
usleep($periods * $period * 1000);
$calls = script_calls($dsn) - $before;
$stats1 = watchdog_stats();

printf("%d periods of %d ms: %d script calls on the server (%.2f per period), %d renewals (%.0f per call)\n",
    $periods, $period, $calls, $calls / $periods,
    $stats1['renewals'] - $stats0['renewals'], ($stats1['renewals'] - $stats0['renewals']) / max($calls, 1));
$alive = 0;
foreach ($locks as $l) {
    $alive += $l->ttl() > 0 ? 1 : 0;
}
printf("%d of %d leases alive after %.1f ttls; lost: %s\n", $alive, $n, ($periods * $period + 1.5 * $period) / $ttl,
    $stats1['locks found lost']);
foreach ($locks as $l) {
    $l->unlock();
}
