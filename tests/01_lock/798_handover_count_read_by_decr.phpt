--TEST--
A fair hand-over with more waiters behind the one served reads the waiters' count by the DECR that counts that one out: no GET of the count, no DEL; the key handed over stays marked, and the next release hands over in turn
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
$srv = rlock_test_own_server();
$o = ['server' => $srv['dsn'], 'ttl' => 20000];

// the calls of each command since the last CONFIG RESETSTAT, but the test's own and BLPOP
$calls = function () use ($srv): string {
    preg_match_all('/^cmdstat_(\w+):calls=(\d+)/m', ($srv['cmd'])('INFO', 'commandstats'), $m, PREG_SET_ORDER);
    $seen = [];
    foreach ($m as [, $cmd, $n]) {
        if (!in_array($cmd, ['info', 'config', 'blpop'], true)) {
            $seen[] = "$cmd=$n";
        }
    }
    sort($seen);
    return implode(' ', $seen);
};
$blocked = function (int $n) use ($srv): void {
    $deadline = microtime(true) + 10 * rlock_test_slow();
    while (!preg_match("/^blocked_clients:$n\r?$/m", ($srv['cmd'])('INFO', 'clients'))) {
        if (microtime(true) > $deadline) {
            die("the waiters never blocked\n");
        }
        usleep(5000);
    }
};

// the server learns the release script
$l = new RLock('other', $o);
var_dump($l->lock(), $l->unlock());
$l = new RLock('k', $o);
var_dump($l->lock());
$pids = $socks = [];
foreach ([1, 2] as $i) {
    [$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    $pid = pcntl_fork();
    if ($pid === 0) {
        fclose($mine);
        $w = new RLock('k', $o);
        $got = $w->lock(15000);
        // (the parent reads the key: the child shares its connection to the server)
        fwrite($theirs, json_encode(['got' => $got, 'token' => $w->token()]) . "\n");
        fgets($theirs);
        fwrite($theirs, json_encode($w->unlock()) . "\n");
        exit(0);
    }
    fclose($theirs);
    $pids[] = $pid;
    $socks[] = $mine;
    $blocked($i);  // the first waiter queued before the second: it is served first
}
($srv['cmd'])('CONFIG', 'RESETSTAT');
var_dump($l->unlock());
echo "release: ", $calls(), "\n";
$served = function ($sock) use ($srv, $l): void {
    $r = json_decode(fgets($sock), true);
    // marked while the other waits, bare once none does
    $v = ($srv['cmd'])('GET', $l->key());
    echo json_encode(['got' => $r['got'], 'marked' => $v === $r['token'] . '+', 'bare' => $v === $r['token']]), "\n";
    fwrite($sock, "go\n");
    echo 'unlocked: ', fgets($sock);
};
$served($socks[0]);
$served($socks[1]);
foreach ($pids as $pid) {
    pcntl_waitpid($pid, $status);
}
var_dump(($srv['cmd'])('EXISTS', $l->key()));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
release: decr=1 evalsha=1 exists=1 get=1 pexpire=1 rpush=1 set=1
{"got":true,"marked":true,"bare":false}
unlocked: true
{"got":true,"marked":false,"bare":true}
unlocked: true
int(0)
