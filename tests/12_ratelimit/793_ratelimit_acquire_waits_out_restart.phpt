--TEST--
RRateLimiter: acquire() whose Redis goes away while it waits for its permits (not fair: the script again when they are due, which finds the server gone; fair: reserved, asleep) waits on for it within its wait, reconnects and takes them, as RLock::lock() does
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$srv = rlock_test_own_server();
$port = $srv['port'];
$o = ['server' => $srv['dsn'], 'retry_delay' => 20];
// the waiters' permits are due 5 s after they ask (50 s under valgrind): the outage begins
// well within that
$period = 5000 * $slow;
// the rate limit scripts the server ran so far
$scripts = function () use ($srv): int {
    $n = 0;
    foreach (explode("\n", ($srv['cmd'])('INFO', 'commandstats')) as $line) {
        if (str_starts_with($line, 'cmdstat_evalsha:calls=') || str_starts_with($line, 'cmdstat_eval:calls=')) {
            $n += (int) substr($line, strpos($line, '=') + 1);
        }
    }
    return $n;
};
$outs = $pids = [];
foreach (['unfair' => false, 'fair' => true] as $name => $fair) {
    var_dump((new RRateLimiter($name, 1, $period, $o))->tryAcquire());
    $before = $scripts();
    $outs[$name] = $out = tempnam(sys_get_temp_dir(), 'rlock-phpt-793-');
    if (($pids[$name] = pcntl_fork()) === 0) {
        try {
            $got = var_export((new RRateLimiter($name, 1, $period, $o + ['fair' => $fair]))->acquire(1, 60000 * $slow), true);
        } catch (RLockException $e) {
            $got = get_class($e) . ': ' . str_replace((string) $port, 'PORT', $e->getMessage());
        }
        file_put_contents($out, $got);
        exit(0);
    }
    // its first decision made (not due for 5 s: the unfair one sleeps until then, the fair one
    // reserved them and sleeps)
    for ($deadline = microtime(true) + 20 * $slow; $scripts() === $before;) {
        if (microtime(true) > $deadline) {
            die("the $name waiter never asked\n");
        }
        usleep(5000);
    }
}

// Redis goes away; its port taken by a listener that gets the unfair waiter's connection when
// it asks again, and closes it: the waiter saw the outage
exec("kill {$srv['pid']}");
for ($deadline = microtime(true) + 10; rlock_test_alive($srv['pid']) && microtime(true) < $deadline;) {
    usleep(10000);
}
$listen = stream_socket_server("tcp://127.0.0.1:$port", $errno, $errstr);
if (!$listen) {
    die("cannot listen on the port: $errstr\n");
}
$statuses = [];
for ($deadline = microtime(true) + 60 * $slow; !($c = @stream_socket_accept($listen, 1)) && microtime(true) < $deadline;) {
    // a machine too slow to stop Redis within the 5 s: said, not waited out
    if (pcntl_waitpid($pids['unfair'], $status, WNOHANG) > 0) {
        $statuses['unfair'] = $status;
        echo "the unfair waiter was done before the outage\n";
        break;
    }
}
echo "the unfair waiter asked again during the outage: ", var_export($c !== false, true), "\n";
fclose($listen);
if ($c) {
    fclose($c);
}

// back on the same port, every key lost
$again = sys_get_temp_dir() . '/rlock-phpt-793-' . getmypid() . '.pid';
exec((getenv('RLOCK_TEST_SERVER') ?: 'redis-server') . " --port $port --bind 127.0.0.1 --save '' --appendonly no"
    . ' --daemonize yes --dir ' . escapeshellarg(sys_get_temp_dir()) . ' --pidfile ' . escapeshellarg($again));
register_shutdown_function(function () use ($again) {
    for ($deadline = microtime(true) + 10; ($pid = (int) @file_get_contents($again)) <= 0 && microtime(true) < $deadline;) {
        usleep(10000);
    }
    if ($pid <= 0) {
        echo "the restarted redis-server wrote no pid\n";
        return;
    }
    exec("kill $pid");
    for ($deadline = microtime(true) + 10; rlock_test_alive($pid) && microtime(true) < $deadline;) {
        usleep(10000);
    }
    @unlink($again);
});
foreach ($pids as $name => $pid) {
    if (isset($statuses[$name])) {
        $status = $statuses[$name];
    } else {
        pcntl_waitpid($pid, $status);
    }
    echo "$name waiter: ", file_get_contents($outs[$name]), " (exit ", rlock_test_exit($status), ")\n";
    unlink($outs[$name]);
}
?>
--EXPECT--
bool(true)
bool(true)
the unfair waiter asked again during the outage: true
unfair waiter: true (exit 0)
fair waiter: true (exit 0)
