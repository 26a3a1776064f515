<?php
/* The torture test's orchestrator (scripts/torture.sh runs it): starts its redis-servers (the
 * main one, three Redlock masters), the relay, N workers, the rogue caller and the faults;
 * starts a worker again after faults.php killed it (a new incarnation); at the deadline stops
 * them all, waits the leases out, scans the servers for keys left, and runs the witness'
 * checks (check.php). Prints the seed first, each violation with the last lines of the
 * processes involved, then the counts and "torture: 1 passed, 0 failed" (or 0 and 1).
 *
 *   php run.php --dir=DIR --ext=rlock.so [--seed=N] [--seconds=N] [--workers=N]
 *       [--lane=plain|valgrind|sanitizers|swoole|zts] [--php=PATH] [--swoole=swoole.so] */

declare(strict_types=1);

require __DIR__ . '/common.php';
require __DIR__ . '/check.php';

ini_set('memory_limit', '4G');  // (the witness reads every log of a long run)

$opt = getopt('', ['dir:', 'ext:', 'seed:', 'seconds:', 'workers:', 'lane:', 'php:', 'swoole:', 'no-rogue', 'harness:', 'harness-ini:', 'threads:']);
$dir = $opt['dir'] ?? null;
$ext = $opt['ext'] ?? null;
if (!$dir || !$ext || !is_dir($dir) || !is_file($ext)) {
    fwrite(STDERR, "usage: run.php --dir=DIR --ext=rlock.so [--seed=N] [--seconds=N] [--workers=N] [--lane=L] [--php=PATH]\n");
    exit(2);
}
$seed = isset($opt['seed']) ? (int) $opt['seed'] : random_int(1, 2 ** 31 - 1);
$seconds = (int) ($opt['seconds'] ?? 60);
$lane = $opt['lane'] ?? 'plain';
$workers = (int) ($opt['workers'] ?? ($lane === 'valgrind' ? 3 : ($lane === 'zts' ? 2 : 6)));
$threads = (int) ($opt['threads'] ?? 3);
$php = $opt['php'] ?? PHP_BINARY;
if (!in_array($lane, ['plain', 'valgrind', 'sanitizers', 'swoole', 'zts'], true) || $workers < 1 || $seconds < 1
    || ($lane === 'zts' && (!is_file($opt['harness'] ?? '') || !is_file($opt['harness-ini'] ?? '') || $threads < 1))) {
    fwrite(STDERR, "run.php: bad --lane, --workers or --seconds\n");
    exit(2);
}
echo "torture: seed=$seed seconds=$seconds workers=$workers", $lane === 'zts' ? " threads=$threads" : '', " lane=$lane\n";
mt_srand($seed);

function free_port(): int
{
    $s = stream_socket_server('tcp://127.0.0.1:0');
    $p = (int) explode(':', stream_socket_get_name($s, false))[1];
    fclose($s);
    return $p;
}

function redis_cmd(string $dir, int $port, string $name): string
{
    return implode(' ', array_map('escapeshellarg', [getenv('RLOCK_TEST_SERVER') ?: 'redis-server', '--port', (string) $port,
        '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', $dir, '--dbfilename', "$name.rdb",
        '--pidfile', "$dir/redis-$port.pid", '--logfile', "$dir/redis-$port.log", '--daemonize', 'yes',
        '--maxmemory-policy', 'noeviction']));
}

$main = free_port();
$masters = [free_port(), free_port(), free_port()];
$relay = free_port();
$cfg = [
    'seed' => $seed, 'dir' => $dir, 'port' => $main, 'masters' => $masters, 'relay_port' => $relay,
    'prefix' => 'tt:', 'resources' => 4, 'permits' => 3,
    // generous: a section is a few ms, a SIGSTOP at most stop_max_ms, the margin 500 ms
    'ttl' => $lane === 'valgrind' ? 6000 : 3000, 'watchdog_ttl' => $lane === 'valgrind' ? 3000 : 1500,
    'margin' => $lane === 'valgrind' ? 1000 : 500, 'stop_max_ms' => 800,
    // the onLost kind's watched lease: short, so that stops and outages make it lost
    'onlost_ttl' => 300,
    // a waiter a release let in keeps a lease of at most a second until it comes back
    'handover_ms' => 1000,
    'rate_limit' => 20, 'rate_period' => 1000, 'rate_burst' => 5,
    'pair_pct' => 12, 'coroutines' => $lane === 'swoole',
    'symfony' => is_file('/usr/share/php/Symfony/Component/Lock/autoload.php'),
    'relay_workers' => $workers >= 3 ? [0 => true, 1 => true] : ($workers === 2 ? [0 => true] : []),
    'relay_faults' => ['delay' => 8, 'cut' => 2, 'drop' => 2, 'loading' => 4, 'busy' => 3],
    'fault_weights' => ['kill' => $lane === 'valgrind' ? 1 : 2, 'stop' => 3, 'clientkill' => 2, 'scriptflush' => 2, 'restart' => 1, 'busy' => 1],
    'redis_cmd' => [],
];
$servers = [$main => 'main'] + array_combine($masters, ['m1', 'm2', 'm3']);
foreach ($servers as $port => $name) {
    $cfg['redis_cmd'][$port] = redis_cmd($dir, $port, $name);
    exec($cfg['redis_cmd'][$port] . ' 2>&1', $out, $rc);
}
// await_up($port): a connection to the server just started there, once it answers (10 s at most)
function await_up(int $port): TortureResp
{
    $r = new TortureResp($port, 0.5);
    for ($i = 0; $i < 200 && $r->cmd('PING') !== 'PONG'; $i++) {
        usleep(50000);
    }
    return $r;
}
foreach ($servers as $port => $name) {
    $r = await_up($port);
    // a script running 50 ms makes others' commands BUSY (lua-time-limit before Redis 7)
    if (!is_string($r->cmd('CONFIG', 'SET', 'busy-reply-threshold', '50'))) {
        $r->cmd('CONFIG', 'SET', 'lua-time-limit', '50');
    }
}
// A Cluster of 3 masters (no replicas) for the cluster kind, in the plain lane: servers of
// its own, created with redis-cli and awaited until every node says cluster_state:ok. No
// fault is aimed at them (without replicas a node down is its slots down); the workers'
// kills and stops are.
$cluster = [];
if ($lane === 'plain') {
    foreach ([1, 2, 3] as $i) {
        $port = free_port();
        $cluster[$port] = "c$i";
        $cfg['redis_cmd'][$port] = redis_cmd($dir, $port, "c$i") . ' --cluster-enabled yes --cluster-config-file '
            . escapeshellarg("$dir/nodes-$port.conf");
        exec($cfg['redis_cmd'][$port] . ' 2>&1', $out, $rc);
    }
    foreach (array_keys($cluster) as $port) {
        await_up($port);
    }
    exec('redis-cli --cluster create ' . implode(' ', array_map(fn ($p) => "127.0.0.1:$p", array_keys($cluster)))
        . ' --cluster-yes 2>&1', $out, $rc);
    for ($i = 0, $ok = false; $i < 300 && !$ok; $i++) {
        $ok = true;
        foreach (array_keys($cluster) as $port) {
            $ok = $ok && str_contains((string) (new TortureResp($port, 0.5))->cmd('CLUSTER', 'INFO'), 'cluster_state:ok');
        }
        $ok || usleep(100000);
    }
    if (!$ok) {
        fwrite(STDERR, "torture: the cluster did not come up (redis-cli --cluster create: exit $rc)\n" . implode("\n", $out) . "\n");
        foreach (array_keys($cluster) as $port) {
            (new TortureResp($port, 1))->cmd('SHUTDOWN', 'NOSAVE');
        }
        exit(2);
    }
}
$cfg['cluster'] = array_map(fn ($p) => "127.0.0.1:$p", array_keys($cluster));
$cfg['seconds'] = $seconds;
$cfg['t0'] = $cfg['deadline'] = 0;  // run.php's go, once every worker is up (torture_go())
file_put_contents("$dir/config.json", json_encode($cfg, JSON_PRETTY_PRINT));
$cfgFile = "$dir/config.json";

$phpCmd = [$php, '-d', "extension=$ext", '-d', 'display_errors=stderr', '-d', 'error_reporting=-1', '-d', 'log_errors=0'];
if ($lane === 'swoole') {
    $phpCmd = array_merge($phpCmd, ['-d', 'extension=' . $opt['swoole']]);
}
$prefix = [];
$env = getenv();
if ($lane === 'valgrind') {
    $prefix = ['valgrind', '-q', '--error-exitcode=99', '--leak-check=full', '--errors-for-leak-kinds=definite'];
    $env['USE_ZEND_ALLOC'] = '0';
}
if ($lane === 'sanitizers') {
    $env['USE_ZEND_ALLOC'] = '0';
}
// the ZTS lane: the rogue caller on the ZTS php with no php.ini (the machine's extensions
// are built for another PHP); the workers are harness processes reading --harness-ini
$roguePhp = $lane === 'zts' ? array_merge([$php, '-n'], array_slice($phpCmd, 1)) : $phpCmd;

function spawn(array $cmd, array $env, string $out): array
{
    $p = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', $out, 'a'], 2 => ['file', $out, 'a']], $pipes, null, $env);
    if (!is_resource($p)) {
        fwrite(STDERR, "torture: cannot start {$cmd[0]}\n");
        exit(2);
    }
    return [$p, status_of($p)['pid']];
}

$procs = [];   // index => [proc, pid, incarnation]
$failures = [];
function start_worker(int $i, int $inc): void
{
    global $procs, $phpCmd, $prefix, $env, $dir, $cfgFile, $lane, $workers, $opt, $threads;
    $cmd = array_merge($prefix, $phpCmd, [__DIR__ . '/worker.php', $cfgFile, (string) $i, (string) $inc]);
    $e = $env;
    if ($lane === 'zts') {
        // threads of one process, each a worker's request (worker.php reads these)
        $cmd = [$opt['harness'], (string) $threads, '1', __DIR__ . '/zts.php'];
        $e = ['TORTURE_CONFIG' => $cfgFile, 'TORTURE_INDEX' => (string) $i, 'TORTURE_INCARNATION' => (string) $inc,
            'PHPRC' => $opt['harness-ini'], 'PHP_INI_SCAN_DIR' => ''] + $env;
    }
    // a worker's clock 2 s ahead (libfaketime; hrtime's monotonic clock stays true): rlock
    // must not trust a client's wall clock. (Not under a sanitizer or valgrind: libfaketime
    // hangs their start.)
    if ($i === 2 && $workers >= 3 && ($lane === 'plain' || $lane === 'swoole')) {
        $cmd = array_merge(['faketime', '-f', '+2s'], $cmd);
        $e['DONT_FAKE_MONOTONIC'] = '1';
    }
    [$p, $pid] = spawn($cmd, $e, "$dir/worker-$i.err");
    $procs[$i] = [$p, $pid, $inc];
    write_pids();
}
function write_pids(): void
{
    global $procs, $dir;
    $pids = [];
    foreach ($procs as $i => [, $pid]) {
        $pids[$i] = $pid;
    }
    file_put_contents("$dir/pids.tmp", json_encode($pids));
    rename("$dir/pids.tmp", "$dir/pids.json");
}
/* proc_get_status(), remembered once the process ended: PHP gives its exit code only once */
function status_of($p): array
{
    static $ended = [];
    $id = (int) $p;
    if (isset($ended[$id])) {
        return $ended[$id];
    }
    $st = proc_get_status($p);
    if (!$st['running']) {
        $ended[$id] = $st;
    }
    return $st;
}
/* exit status of proc_get_status: [exited code|null, signal|null] */
function ended(array $st): array
{
    return $st['signaled'] ? [null, $st['termsig']] : [$st['exitcode'], null];
}
function killed_by_faults(int $pid): bool
{
    global $dir;
    return in_array((string) $pid, explode("\n", (string) @file_get_contents("$dir/killed")), true);
}

$relayProc = spawn(array_merge([PHP_BINARY], [__DIR__ . '/relay.php', $cfgFile]), getenv(), "$dir/relay.err");
for ($i = 0; $i < 100 && !file_exists("$dir/relay.ready"); $i++) {
    usleep(20000);
}
for ($i = 0; $i < $workers; $i++) {
    start_worker($i, 0);
}
// (--no-rogue: a run without it, to tell what the rogue caller finds from the rest)
$rogue = spawn(isset($opt['no-rogue']) ? ['true'] : array_merge($prefix, $roguePhp, [__DIR__ . '/rogue.php', $cfgFile]), $env, "$dir/rogue.err");
$faults = spawn([PHP_BINARY, __DIR__ . '/faults.php', $cfgFile], getenv(), "$dir/faults.err");
$respawns = 0;
// every worker up (its log's first line), then the start signal: the run's time starts
$up = hrtime(true) + 300 * 1000000000;
for ($i = 0; $i < $workers && hrtime(true) < $up; usleep(20000)) {
    if (str_contains((string) @file_get_contents("$dir/worker-$i.log"), ' start ')) {
        $i++;
    }
}
$cfg['t0'] = hrtime(true);
$cfg['deadline'] = $cfg['t0'] + $seconds * 1000000000;
file_put_contents("$dir/config.json", json_encode($cfg, JSON_PRETTY_PRINT));
file_put_contents("$dir/go.tmp", "{$cfg['t0']} {$cfg['deadline']}");
rename("$dir/go.tmp", "$dir/go");

/* a worker that ended: started again if faults.php killed it, else a failure unless it
 * ended its loop (exit 0 after the deadline) */
function reap(int $i, bool $again): void
{
    global $procs, $failures, $respawns, $dir;
    [$p, $pid, $inc] = $procs[$i];
    $st = status_of($p);
    if ($st['running']) {
        return;
    }
    proc_close($p);
    [$code, $sig] = ended($st);
    if ($sig === SIGKILL && killed_by_faults($pid)) {
        if ($again) {
            $respawns++;
            start_worker($i, $inc + 1);
            return;
        }
    } elseif ($sig !== null) {
        $failures[] = "worker $i (pid $pid) ended by signal $sig";
    } elseif ($code !== 0) {
        $failures[] = "worker $i (pid $pid) exited $code";
    }
    unset($procs[$i]);
    write_pids();
}

$others = ['relay' => $relayProc, 'faults' => $faults] + (isset($opt['no-rogue']) ? [] : ['rogue' => $rogue]);
while (hrtime(true) < $cfg['deadline']) {
    usleep(50000);
    foreach (array_keys($procs) as $i) {
        reap($i, hrtime(true) < $cfg['deadline'] - 2000000000);
    }
    foreach ($others as $name => [$p, $pid]) {
        $st = status_of($p);
        if (!$st['running'] && ($name !== 'faults' || hrtime(true) < $cfg['deadline'] - 2000000000)) {
            [$code, $sig] = ended($st);
            if ($sig !== null || $code !== 0) {
                $failures[] = "$name (pid $pid) ended early: " . ($sig !== null ? "signal $sig" : "exit $code");
            }
            unset($others[$name]);
        }
    }
}
touch("$dir/stop");
// (a worker faults.php stopped and did not continue)
foreach ($procs as [, $pid]) {
    posix_kill($pid, SIGCONT);
}
// every worker ends its section and exits: a worker that does not within the bound hangs
$bound = hrtime(true) + ($lane === 'valgrind' ? 120 : 40) * 1000000000;
while ($procs && hrtime(true) < $bound) {
    foreach (array_keys($procs) as $i) {
        reap($i, false);
    }
    usleep(50000);
}
foreach ($procs as $i => [$p, $pid]) {
    $failures[] = "worker $i (pid $pid) did not end within the bound: killed";
    posix_kill($pid, SIGKILL);
    proc_close($p);
}
foreach ([$rogue, $faults] as [$p, $pid]) {
    $until = hrtime(true) + 60 * 1000000000;
    while (status_of($p)['running'] && hrtime(true) < $until) {
        usleep(50000);
    }
    $st = status_of($p);
    if ($st['running']) {
        posix_kill($pid, SIGKILL);
        $failures[] = "pid $pid did not end";
    } elseif (($e = ended($st)) !== [0, null]) {
        $failures[] = "pid $pid ended: " . json_encode($e);
    }
    proc_close($p);
}
touch("$dir/relay.stop");
// (its select wakes every 0.2 s: it is gone within a second; else it is killed)
for ($i = 0; $i < 100 && status_of($relayProc[0])['running']; $i++) {
    usleep(50000);
}
if (status_of($relayProc[0])['running']) {
    proc_terminate($relayProc[0], SIGKILL);
}
proc_close($relayProc[0]);
// what the processes printed: nothing is expected (a warning, a valgrind or sanitizer report)
// (but the harness' line of a run that passed)
foreach (glob("$dir/*.err") as $f) {
    $said = preg_grep('/^harness: \d+ threads x \d+ requests of .*: ok$/', file($f, FILE_IGNORE_NEW_LINES), PREG_GREP_INVERT);
    if ($said) {
        $failures[] = basename($f) . " is not empty:\n" . implode("\n", array_slice($said, 0, 40));
    }
}

// the leases waited out: only the keys the contract keeps are left, each with an expiry
usleep(($cfg['ttl'] + $cfg['margin'] + $cfg['handover_ms']) * 1000);
$left = [];
$expiring = 0;
foreach ($servers + $cluster as $port => $name) {
    $dump = (new TortureResp($port))->dump();
    if ($dump === null) {
        $failures[] = "server $name did not answer the final scan";
        continue;
    }
    unset($dump['']);  // (the server's clock)
    foreach ($dump as $k => [$type, $pttl]) {
        // fencing counters and rate limiter state: kept, each with an expiry. A companion a
        // waiter BLPOPs on ("self-" and its token) keeps 10 s after its last push: it may be
        // left, expiring within that
        $kept = preg_match('/^\}\{.*\}:(fence|rate)$/s', $k) === 1;
        if ($pttl < 0) {
            $failures[] = "key without an expiry on $name: " . json_encode($k) . " ($type)";
        } elseif (!$kept && $pttl > 10000) {
            $left[] = "$name " . json_encode($k) . " ($type, pttl $pttl)";
        } elseif (!$kept) {
            $expiring++;
        }
    }
}
if ($left) {
    $failures[] = 'keys left after every worker stopped and the leases ran out, not expiring within 10 s: ' . implode(', ', array_slice($left, 0, 20));
}

[$c, $violations, $lines] = torture_check($dir, $cfg);
foreach ($failures as $f) {
    $violations[] = ['what' => $f, 'pids' => [], 't' => hrtime(true)];
}
echo torture_reports($violations, $lines, $seed);
$kinds = $c['kinds'];
ksort($kinds);
echo 'torture: kinds ', json_encode($kinds), ' exceptions ', json_encode($c['exception_classes']),
    $cfg['symfony'] ? '' : ' (symfony/lock not installed: no Symfony store sections)', "\n";
echo "torture: seed=$seed seconds=$seconds sections={$c['sections']} guaranteed={$c['guaranteed']} expired={$c['expired']}",
    " misses={$c['misses']} admitted={$c['admitted']} faults={$c['faults']} kills={$c['kills']} stops={$c['stops']}",
    " restarts={$c['restarts']} clientkills={$c['clientkills']} scriptflushes={$c['scriptflushes']} busy={$c['busy']} relay={$c['relay']}",
    " deadchecks={$c['deadchecks']} onlost_fired={$c['onlost']} rogue={$c['rogue']} exceptions={$c['exceptions']} respawns=$respawns expiring_left=$expiring violations=", count($violations), "\n";
echo 'torture: ', $violations ? '0 passed, 1 failed' : '1 passed, 0 failed', "\n";
foreach ($servers + $cluster as $port => $name) {
    (new TortureResp($port, 1))->cmd('SHUTDOWN', 'NOSAVE');
}
exit($violations ? 1 : 0);
