--TEST--
RReadWriteLock: a writer's unlock lets every waiting reader in at once, together
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
$o = rlock_test_options(['ttl' => 20000]);
$writer = new RReadWriteLock('stock', $o);
var_dump($writer->writeLock()->lock());
$readers = rlock_test_companion($o['prefix'] . 'stock', 'readers');

$children = [];
for ($i = 0; $i < 2; $i++) {
    [$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    $pid = pcntl_fork();
    if ($pid === 0) {
        fclose($mine);
        $r = (new RReadWriteLock('stock', $o))->readLock();
        $got = $r->lock(15000 * $slow);
        fwrite($theirs, json_encode(['got' => $got, 'at' => microtime(true)]) . "\n");
        fgets($theirs);  // both readers hold it until the parent has looked
        exit(0);
    }
    fclose($theirs);
    $children[$pid] = $mine;
}

$deadline = microtime(true) + 10 * $slow;
while (rlock_test_cmd('ZCARD', $readers) !== 2 || !preg_match('/^blocked_clients:2/m', rlock_test_cmd('INFO', 'clients'))) {
    if (microtime(true) > $deadline) {
        die("the readers never waited\n");
    }
    usleep(5000);
}
$t0 = microtime(true);
var_dump($writer->writeLock()->unlock());
foreach ($children as $pid => $mine) {
    $child = json_decode(fgets($mine), true);
    echo "a reader got it: ", json_encode($child['got']), ", at once: ", json_encode(($child['at'] - $t0) * 1000 < 3000 * $slow), "\n";
}
echo "both in together: ", rlock_test_cmd('ZCARD', rlock_test_companion($writer->readLock()->key(), 'read')), "\n";
echo "the writer meanwhile: ", json_encode($writer->writeLock()->tryLock()), "\n";
foreach ($children as $pid => $mine) {
    fwrite($mine, "done\n");
    pcntl_waitpid($pid, $status);
}
echo "after they left: ", json_encode($writer->writeLock()->tryLock()), "\n";
?>
--EXPECT--
bool(true)
bool(true)
a reader got it: true, at once: true
a reader got it: true, at once: true
both in together: 2
the writer meanwhile: false
after they left: true
