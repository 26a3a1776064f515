--TEST--
fair => true with a waiter of a lock over several keys (RLock::multi) on the key: the release frees the key and wakes the multi waiter and one mutex waiter; both stall (stopped) before their next round, a newcomer takes the free key by its plain SET NX and releases it: that release wakes the other mutex waiter (CONTRACT 3.6), not the end of the lease it saw
--EXTENSIONS--
rlock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
exec('command -v redis-server', $out, $rc);
if ($rc !== 0) die('skip redis-server not installed');
if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available');
?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$srv = rlock_test_own_server();
$ttl = 60000 * $slow;
$o = ['server' => $srv['dsn'], 'ttl' => $ttl, 'fair' => true];
$blocked = function (int $n) use ($srv): void {
    $deadline = microtime(true) + 10 * rlock_test_slow();
    while (!preg_match("/^blocked_clients:$n\r?$/m", ($srv['cmd'])('INFO', 'clients'))) {
        if (microtime(true) > $deadline) {
            die("never $n blocked\n");
        }
        usleep(5000);
    }
};
$l = new RLock('k', $o);
var_dump($l->lock());
$pids = $socks = [];
// however the test ends, no child left stopped
register_shutdown_function(function () use (&$pids) {
    foreach ($pids as $pid) {
        exec('kill -KILL ' . $pid . ' 2>/dev/null');
    }
});
// the multi waiter, then two mutex waiters
foreach (['multi', 'mutex', 'mutex'] as $i => $kind) {
    [$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    $pid = pcntl_fork();
    if ($pid === 0) {
        fclose($mine);
        $w = $kind === 'multi' ? RLock::multi(['k', 'k2'], $o) : new RLock('k', $o);
        $got = $w->lock($ttl);
        fwrite($theirs, json_encode($got) . "\n");
        fgets($theirs);
        exit(0);
    }
    fclose($theirs);
    stream_set_timeout($mine, intdiv(2 * $ttl, 1000));
    $pids[] = $pid;
    $socks[] = $mine;
    $blocked($i + 1);
}
exec('kill -STOP ' . $pids[0] . ' ' . $pids[1]);
$t = microtime(true);
var_dump($l->unlock());
// (the stopped ones' BLPOPs popped the wakes as the release ended) a newcomer: this
// process found the key free, its plain SET NX first; it may find the key taken by the other
// waiter, should the release have woken that one too
$n = new RLock('k', $o);
if ($n->tryLock()) {
    $n->unlock();
}
echo 'the other mutex waiter: ', fgets($socks[2]);
// before: it slept until the lease it saw would end
var_dump((microtime(true) - $t) * 1000 < $ttl / 2);
fwrite($socks[2], "go\n");
exec('kill -KILL ' . $pids[0] . ' ' . $pids[1] . ' 2>/dev/null');
foreach ($pids as $pid) {
    pcntl_waitpid($pid, $status);
}
?>
--EXPECT--
bool(true)
bool(true)
the other mutex waiter: true
bool(true)
