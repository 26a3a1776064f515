--TEST--
RSemaphore: a waiter whose Redis restarts under its BLPOP waits on for it within its deadline and takes the permit (the restart lost every key), as the lock's waiter does
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
$o = ['server' => $srv['dsn'], 'retry_delay' => 20];
$holder = new RSemaphore('restart', 1, $o + ['ttl' => 60000]);
var_dump($holder->acquire());
$out = tempnam(sys_get_temp_dir(), 'rlock-phpt-420-');
$pid = pcntl_fork();
if ($pid === 0) {
    try {
        $got = (new RSemaphore('restart', 1, $o))->acquire(1, 10000 * $slow);
        file_put_contents($out, var_export($got, true));
    } catch (RLockException $e) {
        file_put_contents($out, get_class($e) . ': ' . $e->getMessage());
    }
    exit(0);
}
$deadline = microtime(true) + 10 * $slow;
while ((int) substr(strstr(($srv['cmd'])('INFO', 'clients'), 'blocked_clients:'), 16) < 1) {
    if (microtime(true) > $deadline) {
        die("the child never blocked\n");
    }
    usleep(5000);
}
// a restart on the same port: every key lost (no persistence), the waiter's connection closed
$again = sys_get_temp_dir() . '/rlock-phpt-420-' . getmypid() . '.pid';
exec("kill {$srv['pid']}");
for ($deadline = microtime(true) + 10; rlock_test_alive($srv['pid']) && microtime(true) < $deadline;) {
    usleep(10000);
}
exec((getenv('RLOCK_TEST_SERVER') ?: 'redis-server') . " --port {$srv['port']} --bind 127.0.0.1 --save '' --appendonly no"
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
});
pcntl_waitpid($pid, $status);
echo "waiter: ", file_get_contents($out), "\n";
unlink($out);
?>
--EXPECT--
bool(true)
waiter: true
