--TEST--
BUSY from a real Redis (a long script running) is waited out within the call's deadline: lock() on one server, and Redlock whose quorum needs the busy masters
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();

/* A script that keeps the server busy for $ms, run by a process of its own; returns once
 * the server answers others BUSY. */
function busy_for(array $server, int $ms)
{
    $script = "local t = redis.call('TIME') local s = t[1] * 1000000 + t[2] "
        . "while true do local n = redis.call('TIME') if n[1] * 1000000 + n[2] - s > $ms * 1000 then return 1 end end";
    $p = proc_open([PHP_BINARY, '-n', '-r', '
        $c = stream_socket_client("tcp://127.0.0.1:" . $argv[1], $errno, $errstr, 2);
        fwrite($c, "*3\r\n\$4\r\nEVAL\r\n\$" . strlen($argv[2]) . "\r\n" . $argv[2] . "\r\n\$1\r\n0\r\n");
        echo fgets($c);', (string) $server['port'], $script], [1 => ['pipe', 'w']], $pipes);
    for ($deadline = microtime(true) + 10; microtime(true) < $deadline; usleep(5000)) {
        if (($server['cmd'])('PING') !== 'PONG') {
            return [$p, $pipes[1]];
        }
    }
    throw new RuntimeException('never busy');
}

$servers = [];
for ($i = 0; $i < 3; $i++) {
    $servers[] = rlock_test_own_server('--busy-reply-threshold 20');
}

// (10 x under valgrind, so that the test sees the script run)
$timeouts = ['connect_timeout' => 1000 * $slow, 'read_timeout' => 1000 * $slow, 'retry_delay' => 20];
$l = new RLock('k', ['server' => $servers[0]['dsn']] + $timeouts);
$busy = busy_for($servers[0], 500 * $slow);
echo "one server: lock ", var_export($l->lock(), true), ", unlock ", var_export($l->unlock(), true), "\n";
echo "  the script: ", trim(fgets($busy[1])), "\n";

// 2 of 3 masters busy: no quorum without them
$l = new RLock('k', ['servers' => array_column($servers, 'dsn')] + $timeouts);
$busy = [busy_for($servers[1], 500 * $slow), busy_for($servers[2], 500 * $slow)];
echo "Redlock: tryLock ", var_export($l->tryLock(), true), ", unlock ", var_export($l->unlock(), true), "\n";
foreach ($busy as [$p, $out]) {
    echo "  the script: ", trim(fgets($out)), "\n";
}
?>
--EXPECT--
one server: lock true, unlock true
  the script: :1
Redlock: tryLock true, unlock true
  the script: :1
  the script: :1
