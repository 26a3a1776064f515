<?php
// The cost of the pool-wide statistics (issue 21): statistics on (rlock.stats_keys=256, the
// default) against off (0), in one run, rounds alternating, medians of ROUNDS.
//
//   php bench/stats.php [ROUNDS=3]     (bench/stats.sh runs it with the built extension)
//
// 1. The uncontended lock + unlock cycle, a fresh lock object per cycle, in one process (a
//    php of its own per round and setting): us/cycle; and the instructions per cycle under
//    callgrind (the difference of 1,000 and 3,000 cycles: the start-up left out), which the
//    machine's noise does not move.
// 2. The flash-sale endpoint (examples/seckill, nginx + 16 php-fpm workers): two stacks side
//    by side, one with statistics off, the same sale of 2,000 buyers 100 at a time (stock for
//    all, 0.5 ms of work in the sale) through each in turn: req/s.

declare(strict_types=1);

require __DIR__ . '/../examples/seckill/lib/client.php';

$rounds = (int) ($argv[1] ?? 3);
$repo = dirname(__DIR__);
$so = getenv('RLOCK_SO') ?: "$repo/modules/rlock.so";
$tmp = sys_get_temp_dir() . '/rlock-bench-stats-' . getmypid();
@mkdir($tmp);
copy($so, "$tmp/rlock.so");
$median = function (array $v): float {
    sort($v);
    return (float) $v[intdiv(count($v), 2)];
};

// --- 1. uncontended -------------------------------------------------------------------
$s = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) explode(':', stream_socket_get_name($s, false))[1];
fclose($s);
exec("redis-server --port $port --bind 127.0.0.1 --save '' --appendonly no --daemonize yes --dir $tmp --pidfile $tmp/redis.pid");
for ($i = 0; $i < 100 && !@stream_socket_client("tcp://127.0.0.1:$port"); $i++) {
    usleep(50000);
}
file_put_contents("$tmp/cycle.php", '<?php
[, $n, $port] = $argv;
$o = ["server" => "redis://127.0.0.1:$port"];
for ($i = 0; $i < 200; $i++) { $l = new RLock("bench:stats", $o); $l->lock(); $l->unlock(); }
$t = hrtime(true);
for ($i = 0; $i < (int) $n; $i++) { $l = new RLock("bench:stats", $o); $l->lock(); $l->unlock(); }
echo (hrtime(true) - $t) / 1e3 / (int) $n, "\n";');
$php = fn (int $keys): string => PHP_BINARY . " -n -d extension=$tmp/rlock.so -d rlock.stats_keys=$keys";
$us = [256 => [], 0 => []];
for ($r = 0; $r < $rounds; $r++) {
    foreach ([256, 0] as $keys) {
        $us[$keys][] = (float) shell_exec($php($keys) . " $tmp/cycle.php 20000 $port");
    }
}
$ir = [];
if (is_executable('/usr/bin/valgrind')) {
    foreach ([256, 0] as $keys) {
        $c = [];
        foreach ([1000, 3000] as $n) {
            $out = shell_exec("valgrind --tool=callgrind --callgrind-out-file=/dev/null " . $php($keys) . " $tmp/cycle.php $n $port 2>&1");
            preg_match('/Collected : (\d+)/', (string) $out, $m);
            $c[$n] = (int) ($m[1] ?? 0);
        }
        $ir[$keys] = ($c[3000] - $c[1000]) / 2000;
    }
}
exec("kill $(cat $tmp/redis.pid)");

echo "\nUncontended lock + unlock, one process, a fresh lock object per cycle (medians of $rounds):\n\n";
echo "| statistics | us/cycle | instructions/cycle (callgrind) |\n|---|---:|---:|\n";
foreach ([0 => 'off (rlock.stats_keys=0)', 256 => 'on (256 keys)'] as $keys => $label) {
    printf("| %s | %.1f | %s |\n", $label, $median($us[$keys]), isset($ir[$keys]) ? number_format($ir[$keys], 0) : '-');
}
printf("| on / off | %.3fx | %s |\n", $median($us[256]) / $median($us[0]),
    isset($ir[0]) && $ir[0] > 0 ? sprintf('%.3fx', $ir[256] / $ir[0]) : '-');

// --- 2. the flash-sale endpoint ---------------------------------------------------------
$stacks = [];
foreach ([256 => '', 0 => '-d rlock.stats_keys=0'] as $keys => $args) {
    $env = getenv() + ['RLOCK_SO' => $so, 'STACK_WORKERS' => '16', 'STACK_MAX_REQUESTS' => '100000',
        'STACK_FPM_ARGS' => $args];
    $out = shell_exec('env ' . implode(' ', array_map(fn ($k, $v) => escapeshellarg("$k=$v"), array_keys($env), $env))
        . " bash $repo/scripts/lib/stack.sh start 2>&1");
    preg_match_all('/^(STACK_[A-Z_]+)=(.*)$/m', (string) $out, $m, PREG_SET_ORDER);
    $vars = array_column($m, 2, 1);
    if (!isset($vars['STACK_URL'])) {
        fwrite(STDERR, "the stack did not start:\n$out\n");
        exit(1);
    }
    $stacks[$keys] = $vars;
}
$rps = [256 => [], 0 => []];
try {
    for ($r = 0; $r < $rounds; $r++) {
        foreach ([256, 0] as $keys) {
            $v = $stacks[$keys];
            $cfg = ['url' => $v['STACK_URL'], 'lock_redis' => $v['STACK_LOCK_REDIS'], 'shop_redis' => $v['STACK_SHOP_REDIS'],
                'workers' => 16, 'max_requests' => 100000, 'terminate' => 3, 'fpm_pid' => (int) $v['STACK_FPM_PID']];
            $res = seckill_run($cfg, ['sku' => "bench-$r", 'stock' => 2000, 'requests' => 2000, 'concurrency' => 100,
                'wait' => 5000, 'work_us' => 500]);
            $rps[$keys][] = $res['rps'];
        }
    }
} finally {
    foreach ($stacks as $v) {
        exec("bash $repo/scripts/lib/stack.sh stop " . escapeshellarg($v['STACK_DIR']));
    }
    exec('rm -rf ' . escapeshellarg($tmp));
}
echo "\nThe flash-sale endpoint, 16 php-fpm workers, 2,000 buyers 100 at a time (medians of $rounds):\n\n";
echo "| statistics | req/s |\n|---|---:|\n";
printf("| off (rlock.stats_keys=0) | %.0f |\n| on (256 keys) | %.0f |\n", $median($rps[0]), $median($rps[256]));
printf("| on / off | %.3fx |\n", $median($rps[256]) / $median($rps[0]));
