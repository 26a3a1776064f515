--TEST--
A hand-over's cost in Redis: a waiter's round runs its acquire script with six commands (the key read, the grants looked at with LLEN, the lease read, the count raised and its life kept, the key marked (APPEND of a "+": waiters are counted); no SET NX that fails, no LPOP of an empty list) and its BLPOP; the release that hands over runs seven (the count read by the DECR that counts the waiter out, deleted at 0)
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
$o = ['server' => $srv['dsn'], 'ttl' => 20000];

/* the calls of each command since the last CONFIG RESETSTAT, but the test's own and the
 * waiter's BLPOP (counted when it blocks or once it is served, as the server's version has it) */
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

// the server learns both scripts, and this process (and its child) that k is contended:
// the child's first attempt is the script
$l = new RLock('other', $o + ['fencing' => true]);
var_dump($l->lock(), $l->unlock());
$l = new RLock('k', $o);
var_dump($l->lock());
$probe = new RLock('k', $o + ['reentrant' => false]);
var_dump($probe->lock(0));
($srv['cmd'])('CONFIG', 'RESETSTAT');

[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = pcntl_fork();
if ($pid === 0) {
    fclose($mine);
    $w = new RLock('k', $o);
    $got = $w->lock(15000);
    fwrite($theirs, json_encode($got) . "\n");
    fgets($theirs);  // hold the lock until the parent has looked
    exit(0);
}
fclose($theirs);

// wait (with a deadline) until the child is blocked in its BLPOP (its round went out on a
// new connection, the child's own: the script as EVAL, as a new connection sends it)
$deadline = microtime(true) + 10 * $slow;
while (!preg_match('/^blocked_clients:1/m', ($srv['cmd'])('INFO', 'clients'))) {
    if (microtime(true) > $deadline) {
        die("the child never blocked\n");
    }
    usleep(5000);
}
echo "waiter: ", $calls(), "\n";
($srv['cmd'])('CONFIG', 'RESETSTAT');
var_dump($l->unlock());
echo "release: ", $calls(), "\n";
echo "handed over: ", fgets($mine);
fwrite($mine, "done\n");
pcntl_waitpid($pid, $status);
var_dump(rlock_test_exit($status));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(false)
waiter: append=1 eval=1 get=1 incr=1 llen=1 pexpire=1 pttl=2
bool(true)
release: decr=1 del=1 evalsha=1 exists=1 get=1 pexpire=1 rpush=1 set=1
handed over: true
int(0)
