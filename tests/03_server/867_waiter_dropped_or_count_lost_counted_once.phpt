--TEST--
A waiter, of the lock or of a lock over several keys, whose connection drops while it waits (CLIENT KILL) and that waits again on a new one is counted once among the key's waiters; one that finds the count gone (a restart that lost it, the key taken again since) counts itself again; either way the holder's release wakes it, long before the holder's lease would have ended
--EXTENSIONS--
rlock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available');
?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$srv = rlock_test_own_server();
$cmd = $srv['cmd'];
// a lease far past every wait below: a waiter left uncounted would sleep it out
$o = ['server' => $srv['dsn'], 'prefix' => 'p:', 'ttl' => 60000 * $slow];
$count = rlock_test_companion('p:a', 'waiters');
// the id of the one client blocked in a BLPOP, once there is one, other than $gone
$blocked = function (string $gone = '') use ($cmd, $slow): string {
    $deadline = microtime(true) + 10 * $slow;
    for (;;) {
        preg_match_all('/\bid=(\d+)\b.* cmd=blpop\b/m', $cmd('CLIENT', 'LIST'), $m);
        if (count($m[1]) === 1 && $m[1][0] !== $gone) {
            return $m[1][0];
        }
        if (microtime(true) > $deadline) {
            die("never blocked\n");
        }
        usleep(5000);
    }
};

foreach ([['a'], ['a', 'b']] as $keys)
foreach (['dropped' => false, 'count lost' => true] as $case => $lose) {
    $case = implode(',', $keys) . ", $case";
    $unit = count($keys) === 1 ? 1 : 4294967296;
    $h = new RLock('a', $o);
    $h->lock();
    [$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    $pid = pcntl_fork();
    if ($pid === 0) {
        fclose($mine);
        $m = count($keys) === 1 ? new RLock('a', $o) : RLock::multi($keys, $o);
        $got = $m->lock(30000 * $slow);
        fwrite($theirs, json_encode($got && $m->unlock()) . "\n");
        exit(0);
    }
    fclose($theirs);
    $id = $blocked();
    echo "$case: counted ", $cmd('GET', $count) / $unit, "\n";
    if ($lose) {
        $cmd('DEL', $count);
    }
    $cmd('CLIENT', 'KILL', 'ID', $id);
    $blocked($id);
    echo "$case: waits again, counted ", $cmd('GET', $count) / $unit, "\n";
    $t = microtime(true);
    $h->unlock();
    echo "$case: the waiter took and released it: ", trim((string) fgets($mine)), "\n";
    // woken by the release, not by the lease's end (60 s)
    echo "$case: woken by the release: ", json_encode(microtime(true) - $t < 20 * $slow), "\n";
    pcntl_waitpid($pid, $status);
    echo "$case: keys left: ", $cmd('EXISTS', 'p:a', 'p:b', $count, rlock_test_companion('p:b', 'waiters')), "\n";
}
?>
--EXPECT--
a, dropped: counted 1
a, dropped: waits again, counted 1
a, dropped: the waiter took and released it: true
a, dropped: woken by the release: true
a, dropped: keys left: 0
a, count lost: counted 1
a, count lost: waits again, counted 1
a, count lost: the waiter took and released it: true
a, count lost: woken by the release: true
a, count lost: keys left: 0
a,b, dropped: counted 1
a,b, dropped: waits again, counted 1
a,b, dropped: the waiter took and released it: true
a,b, dropped: woken by the release: true
a,b, dropped: keys left: 0
a,b, count lost: counted 1
a,b, count lost: waits again, counted 1
a,b, count lost: the waiter took and released it: true
a,b, count lost: woken by the release: true
a,b, count lost: keys left: 0
