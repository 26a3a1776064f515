--TEST--
RReadWriteLock: a writer handed the lock whose call making the grant its own loses its reply gets in at its next lock(), with the grant's token
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
require __DIR__ . '/../cut_relay.inc';
$slow = rlock_test_slow();
$srv = rlock_test_own_server();
// the reply to the call that makes the grant the writer popped its own, {1, token, fence}
$relay = rlock_cut_relay($srv['port'], fn (string $chunk) => str_starts_with($chunk, "*3\r\n:1\r\n\$32\r\n") ? 0 : null);
$o = ['prefix' => 'cut:', 'ttl' => 60000, 'retry_delay' => 20];
$reader = new RReadWriteLock('stock', ['server' => $srv['dsn']] + $o);
var_dump($reader->readLock()->lock());

[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = pcntl_fork();
if ($pid === 0) {
    fclose($mine);
    $w = (new RReadWriteLock('stock', ['server' => $relay['dsn']] + $o))->writeLock();
    try {
        $first = json_encode($w->lock(20000 * $slow));
    } catch (RLockException $e) {
        $first = get_class($e);
    }
    $got = $w->lock(3000 * $slow);
    fwrite($theirs, json_encode(['first' => $first, 'got' => $got, 'ttl' => $w->ttl()]) . "\n");
    $w->unlock();
    exit(0);
}
fclose($theirs);
$deadline = microtime(true) + 10 * $slow;
while (($srv['cmd'])('ZCARD', '}{cut:stock}:writers') !== 1
        || (int) substr(strstr(($srv['cmd'])('INFO', 'clients'), 'blocked_clients:'), 16) < 1) {
    if (microtime(true) > $deadline) {
        die("the writer never waited\n");
    }
    usleep(5000);
}
var_dump($reader->readLock()->unlock());
$child = json_decode(fgets($mine), true);
pcntl_waitpid($pid, $status);
var_dump(($relay['cut'])());
echo "its first lock(): ", $child['first'], "\n";
// the next one is the grant's holder (before: a wait for the grant, made the writer's with 60 s)
echo "its next lock(): ", json_encode($child['got']), ", ttl its own: ", json_encode($child['ttl'] > 50000), "\n";
echo "nothing left: ", ($srv['cmd'])('EXISTS', '}{cut:stock}:write'), "\n";
echo "a reader after it: ", json_encode($reader->readLock()->tryLock()), "\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
its first lock(): RLockConnectionException
its next lock(): true, ttl its own: true
nothing left: 0
a reader after it: true
