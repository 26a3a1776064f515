--TEST--
With an empty prefix, releasing the lock "{x}" does not hand the lock "x", still held, to the waiter of "x": distinct keys share no companion key
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$srv = rlock_test_own_server();
$o = ['server' => $srv['dsn'], 'prefix' => '', 'ttl' => 10000];
$a = new RLock('x', $o);
var_dump($a->tryLock());

[$up, $down] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = pcntl_fork();
if ($pid === 0) {
    fclose($up);
    $w = new RLock('x', $o);
    $got = $w->lock(10000 * $slow);
    // on the lock's hand-over from $a, the key holds our token
    fwrite($down, json_encode(['got' => $got, 'ours' => $got && $w->isAcquired()]) . "\n");
    exit(0);
}
fclose($down);
$deadline = microtime(true) + 10 * $slow;
while (!preg_match('/^blocked_clients:1/m', ($srv['cmd'])('INFO', 'clients'))) {
    if (microtime(true) > $deadline) {
        die("the child never blocked\n");
    }
    usleep(5000);
}
$b = new RLock('{x}', $o);
var_dump($b->tryLock(), $b->unlock());
// $a still holds "x", and only its release hands "x" to the waiter
var_dump($a->isAcquired(), $a->unlock());
echo fgets($up);
pcntl_waitpid($pid, $status);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
{"got":true,"ours":true}
