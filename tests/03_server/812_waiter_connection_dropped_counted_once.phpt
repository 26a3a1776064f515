--TEST--
A waiter whose connection drops while it waits (CLIENT KILL, a proxy's idle timeout) and that waits again on a new one is counted once among the waiters: once every waiter took and released the key, nobody holds it (before: counted twice, the last release handed the key to a waiter that no longer existed: isLocked() true, the count left, until the next lock() took over the grant left for nobody)
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
--XFAIL--
Not fixed: lock.c's wait loop counts a waiter again after its connection drops (queued = false). Keeping queued instead (tried: 7b17a1d, reverted) leaves waiters uncounted after a restart (each waiter back but the first two, who re-create the count; 7 waiters took 9.35 s to pass a lock held 2.8 s with 3 s leases) and after a grant lost with the connection; a fix must tell those apart from a mere drop
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$srv = rlock_test_own_server();
$o = ['server' => $srv['dsn'], 'ttl' => 60000 * $slow];
$blocked = function (int $n) use ($srv): array {
    $deadline = microtime(true) + 10 * rlock_test_slow();
    for (;;) {
        preg_match_all('/\bid=(\d+)\b.* cmd=blpop\b/m', ($srv['cmd'])('CLIENT', 'LIST'), $m);
        if (count($m[1]) === $n) {
            return $m[1];
        }
        if (microtime(true) > $deadline) {
            die("the waiters never blocked\n");
        }
        usleep(5000);
    }
};
$l = new RLock('k', $o);
var_dump($l->lock());
$pids = [];
foreach ([1, 2] as $i) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        $w = new RLock('k', $o);
        $got = $w->lock(30000 * $slow);
        exit($got && $w->unlock() ? 0 : 1);
    }
    $pids[] = $pid;
    $blocked($i);
}
// both waiters' connections dropped: each waits again on a new one
foreach ($blocked(2) as $id) {
    ($srv['cmd'])('CLIENT', 'KILL', 'ID', $id);
}
$blocked(2);
var_dump($l->unlock());
foreach ($pids as $pid) {
    pcntl_waitpid($pid, $status);
    echo 'waiter took and released it: ', json_encode(pcntl_wexitstatus($status) === 0), "\n";
}
// nobody holds it, nobody waits (before: the key handed to the waiter counted twice, a grant
// for nobody that the next lock() takes over, isLocked() true until then, for a lease)
var_dump($l->isLocked());
echo 'count: ', json_encode(($srv['cmd'])('GET', '}{' . $l->key() . '}:waiters')), "\n";
var_dump((new RLock('k', $o))->tryLock());
?>
--EXPECT--
bool(true)
bool(true)
waiter took and released it: true
waiter took and released it: true
bool(false)
count: null
bool(true)
