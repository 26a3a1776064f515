--TEST--
lock($wait) against a server that stops answering during the wait returns within wait + connect_timeout + read_timeout (was 2 x wait + read_timeout)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
['port' => $port, 'pid' => $pid, 'dsn' => $dsn, 'cmd' => $cmd] = rlock_test_own_server();

// a process of its own stops the server once our waiter is blocked in its BLPOP; it says
// when it is watching, so that its start (seconds under valgrind) is not spent of the wait
$stopper = proc_open([PHP_BINARY, '-n', '-r', '
    $c = stream_socket_client("tcp://127.0.0.1:" . $argv[1], $errno, $errstr, 2);
    echo "watching\n";
    for ($deadline = microtime(true) + 60; microtime(true) < $deadline; usleep(5000)) {
        fwrite($c, "INFO clients\r\n");
        $len = (int) substr(fgets($c), 1);
        $info = fread($c, $len + 2);
        while (strlen($info) < $len + 2) { $info .= fread($c, $len + 2 - strlen($info)); }
        if (preg_match("/blocked_clients:([1-9])/", $info)) { proc_close(proc_open(["kill", "-STOP", $argv[2]], [], $p)); exit(0); }
    }
    exit(1);', (string) $port, (string) $pid], [1 => ['pipe', 'w']], $pipes);
if (fgets($pipes[1]) !== "watching\n") {
    exit("the stopper did not start\n");
}

$wait = 2000;
$l = new RLock('k', ['server' => $dsn, 'connect_timeout' => 300, 'read_timeout' => 300]);
$cmd('SET', $l->key(), 'someone else', 'PX', '60000');
$t = microtime(true);
try {
    var_dump($l->lock($wait));
} catch (RLockConnectionException $e) {
    echo get_class($e), ': ', str_replace((string) $port, 'PORT', $e->getMessage()), "\n";
}
$ms = (microtime(true) - $t) * 1000;
echo "stopper: ", proc_close($stopper), "\n";
// the deadline is wait + connect_timeout + read_timeout (2600 ms); before, 2 x wait + read_timeout (4300 ms)
echo "within its deadline: ", var_export($ms >= $wait && $ms < ($wait + 300 + 300 + 1000) * $slow, true), "\n";
?>
--EXPECT--
RLockConnectionException: Redis 127.0.0.1:PORT: read timed out
stopper: 0
within its deadline: true
