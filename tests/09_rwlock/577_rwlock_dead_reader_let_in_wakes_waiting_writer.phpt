--TEST--
RReadWriteLock: a writer waiting behind another writer, when that one's unlock lets in a reader that died in the queue, gets in once the dead reader's place ends, not at the released lease's end
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
$o = rlock_test_options(['ttl' => 60000]);
$rw = new RReadWriteLock('stock', $o);
var_dump($rw->writeLock()->lock());
$writers = rlock_test_companion($o['prefix'] . 'stock', 'writers');
$readers = rlock_test_companion($o['prefix'] . 'stock', 'readers');
$blocked = fn (int $n) => preg_match("/^blocked_clients:$n\r?\$/m", rlock_test_cmd('INFO', 'clients'));
$await = function (string $what, callable $cond) use ($slow) {
    for ($deadline = microtime(true) + 10 * $slow; !$cond();) {
        if (microtime(true) > $deadline) {
            die("$what\n");
        }
        usleep(5000);
    }
};

// a writer waits behind ours: its round is planned against our lease (60 s)
[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$writer = pcntl_fork();
if ($writer === 0) {
    fclose($mine);
    $got = (new RReadWriteLock('stock', $o))->writeLock()->lock(30000 * $slow);
    fwrite($theirs, json_encode(['got' => $got, 'at' => microtime(true)]) . "\n");
    exit(0);
}
fclose($theirs);
$await('the writer never waited', fn () => rlock_test_cmd('ZCARD', $writers) === 1 && $blocked(1));
// a reader waits too, and dies there
$reader = pcntl_fork();
if ($reader === 0) {
    (new RReadWriteLock('stock', $o))->readLock()->lock(60000);
    exit(0);
}
$await('the reader never waited', fn () => rlock_test_cmd('ZCARD', $readers) === 1 && $blocked(2));
exec("kill -KILL $reader");
pcntl_waitpid($reader, $status);
echo "killed: ", json_encode(pcntl_wifsignaled($status)), "\n";
$await('Redis never saw the reader go', fn () => $blocked(1));

// our unlock lets the waiting readers in first: the dead one
$t0 = microtime(true);
var_dump($rw->writeLock()->unlock());
echo "readers in: ", rlock_test_cmd('ZCARD', rlock_test_companion($rw->readLock()->key(), 'read')), "\n";
$child = json_decode(fgets($mine), true);
pcntl_waitpid($writer, $status);
echo "the writer got it: ", json_encode($child['got']), "\n";
// once the dead reader's place ends (a second), not when our lease would have (60 s)
$ms = ($child['at'] - $t0) * 1000;
echo "within 3 s: ", json_encode($ms < 3000 * $slow), $ms < 3000 * $slow ? '' : " ($ms ms)", "\n";
?>
--EXPECT--
bool(true)
killed: true
bool(true)
readers in: 1
the writer got it: true
within 3 s: true
