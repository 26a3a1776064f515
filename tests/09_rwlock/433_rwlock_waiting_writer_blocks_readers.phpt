--TEST--
RReadWriteLock: a waiting writer keeps new readers out, and the last reader's unlock wakes it at once
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
$o = rlock_test_options(['ttl' => 20000, 'reentrant' => false]);
$reader = new RReadWriteLock('stock', $o);
var_dump($reader->readLock()->lock());
$writers = rlock_test_companion($o['prefix'] . 'stock', 'writers');

[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = pcntl_fork();
if ($pid === 0) {
    fclose($mine);
    $w = (new RReadWriteLock('stock', $o))->writeLock();
    $got = $w->lock(15000 * $slow);
    fwrite($theirs, json_encode(['got' => $got, 'at' => microtime(true)]) . "\n");
    fgets($theirs);
    exit(0);
}
fclose($theirs);

// the writer marks itself waiting and blocks
$deadline = microtime(true) + 10 * $slow;
while (rlock_test_cmd('ZCARD', $writers) !== 1 || !preg_match('/^blocked_clients:1/m', rlock_test_cmd('INFO', 'clients'))) {
    if (microtime(true) > $deadline) {
        die("the writer never waited\n");
    }
    usleep(5000);
}
$late = new RReadWriteLock('stock', $o);
echo "a new reader while the writer waits: ", json_encode($late->readLock()->tryLock()), "\n";
echo "a new reader waiting 100 ms: ", json_encode($late->readLock()->lock(100)), "\n";
$t0 = microtime(true);
var_dump($reader->readLock()->unlock());
$child = json_decode(fgets($mine), true);
echo "the writer got it: ", json_encode($child['got']), ", at once: ", json_encode(($child['at'] - $t0) * 1000 < 3000 * $slow), "\n";
echo "its mark gone: ", rlock_test_cmd('ZCARD', $writers), "\n";
fwrite($mine, "done\n");
pcntl_waitpid($pid, $status);
echo "after the writer's exit, a reader: ", json_encode($late->readLock()->tryLock()), "\n";
?>
--EXPECT--
bool(true)
a new reader while the writer waits: false
a new reader waiting 100 ms: false
bool(true)
the writer got it: true, at once: true
its mark gone: 0
after the writer's exit, a reader: true
