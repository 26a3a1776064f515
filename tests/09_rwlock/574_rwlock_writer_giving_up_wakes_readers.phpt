--TEST--
RReadWriteLock: a waiting writer that gives up (its wait over) lets in at once the readers its mark kept out
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
var_dump($rw->readLock()->lock());
$writers = rlock_test_companion($o['prefix'] . 'stock', 'writers');
$readers = rlock_test_companion($o['prefix'] . 'stock', 'readers');

/* a child: $side's lock($wait), then what it got and when it returned */
$start = function (bool $write, int $wait) use ($o): array {
    [$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    $pid = pcntl_fork();
    if ($pid === 0) {
        fclose($mine);
        $rw = new RReadWriteLock('stock', $o);
        $got = ($write ? $rw->writeLock() : $rw->readLock())->lock($wait);
        fwrite($theirs, json_encode(['got' => $got, 'at' => microtime(true)]) . "\n");
        fgets($theirs);
        exit(0);
    }
    fclose($theirs);
    return [$pid, $mine];
};
$await = function (string $what, callable $cond) use ($slow) {
    for ($deadline = microtime(true) + 10 * $slow; !$cond();) {
        if (microtime(true) > $deadline) {
            die("$what\n");
        }
        usleep(5000);
    }
};
$blocked = fn (int $n) => preg_match("/^blocked_clients:$n\r?\$/m", rlock_test_cmd('INFO', 'clients'));

// a writer waits up to 1 s behind the reader; a reader comes after it, and waits behind its mark
[$wpid, $w] = $start(true, 1000 * $slow);
$await('the writer never waited', fn () => rlock_test_cmd('ZCARD', $writers) === 1 && $blocked(1));
[$rpid, $r] = $start(false, 30000 * $slow);
$await('the reader never waited', fn () => rlock_test_cmd('ZCARD', $readers) === 1 && $blocked(2));

$writer = json_decode(fgets($w), true);
$reader = json_decode(fgets($r), true);
echo "the writer gave up: ", json_encode(!$writer['got']), "\n";
echo "the reader got in: ", json_encode($reader['got']), "\n";
// when the writer left, not when its mark would have ended (a second later)
$ms = ($reader['at'] - $writer['at']) * 1000;
echo "at once: ", json_encode($ms < 600 * $slow), $ms < 600 * $slow ? '' : " ($ms ms)", "\n";
echo "no mark left: ", rlock_test_cmd('ZCARD', $writers) + rlock_test_cmd('ZCARD', $readers), "\n";
echo "readers in: ", rlock_test_cmd('ZCARD', rlock_test_companion($rw->readLock()->key(), 'read')), "\n";
foreach ([$wpid => $w, $rpid => $r] as $pid => $s) {
    fwrite($s, "done\n");
    pcntl_waitpid($pid, $status);
}
var_dump($rw->readLock()->unlock());
echo "a writer after them: ", json_encode($rw->writeLock()->tryLock()), "\n";
?>
--EXPECT--
bool(true)
the writer gave up: true
the reader got in: true
at once: true
no mark left: 0
readers in: 2
bool(true)
a writer after them: true
