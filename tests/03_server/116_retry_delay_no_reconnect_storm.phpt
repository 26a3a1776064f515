--TEST--
A waiter whose Redis went away reconnects no faster than retry_delay allows: with its smallest value, 1 ms, attempts are at least 0.5 ms apart (before: a 0 or 1 ms retry_delay slept 0 and reconnected in a busy loop)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$srv = rlock_test_own_server();
$cmd = $srv['cmd'];
$cmd('SET', 'p:storm', 'someone-else', 'PX', '60000');

[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = pcntl_fork();
if ($pid === 0) {
    fclose($mine);
    $l = new RLock('storm', ['server' => $srv['dsn'], 'prefix' => 'p:', 'retry_delay' => 1, 'connect_timeout' => 500]);
    try {
        $r = var_export($l->lock(4000), true);
    } catch (RLockException $e) {
        $r = get_class($e);
    }
    fwrite($theirs, "$r\n");
    exit(0);
}
fclose($theirs);

// the waiter is blocked on Redis; then Redis goes away ...
for ($deadline = microtime(true) + 10; !str_contains($cmd('INFO', 'clients'), 'blocked_clients:1') && microtime(true) < $deadline;) {
    usleep(1000);
}
exec('kill ' . $srv['pid']);
// ... and in its place a listener that counts the waiter's attempts and closes each at once
$port = $srv['port'];
for ($deadline = microtime(true) + 10; !($l = @stream_socket_server("tcp://127.0.0.1:$port")) && microtime(true) < $deadline;) {
    usleep(1000);
}
$at = [];
for ($end = microtime(true) + 1; microtime(true) < $end && count($at) < 500;) {
    if ($c = @stream_socket_accept($l, 0.1)) {
        $at[] = microtime(true);
        fclose($c);
    }
}
fclose($l);
$gaps = [];
for ($i = 1; $i < count($at); $i++) {
    $gaps[] = $at[$i] - $at[$i - 1];
}
echo "attempts counted: ", count($at) >= 20 ? 'yes' : 'no: ' . count($at), "\n";
printf("shortest gap at least 0.5 ms: %s\n", min($gaps) >= 0.0005 ? 'yes' : sprintf('no: %.3f ms', min($gaps) * 1000));
echo "the waiter: ", trim(fgets($mine));
pcntl_waitpid($pid, $status);
?>
--EXPECT--
attempts counted: yes
shortest gap at least 0.5 ms: yes
the waiter: RLockConnectionException
