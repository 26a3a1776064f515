--TEST--
RSemaphore: a waiter that comes back after its ticket died (stopped past it) queues again, and takes a free permit at once
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
$o = rlock_test_options();
// a holder whose lease ends (a crashed one's would too), no release to serve the queue; 2 s:
// the child must queue and be stopped within it (the child's ticket dies 1 s after it)
$a = new RSemaphore('late', 1, $o + ['ttl' => 2000 * $slow, 'auto_release' => false]);
var_dump($a->acquire());
$h = rlock_test_companion($o['prefix'] . 'late', 'semaphore');

[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = pcntl_fork();
if ($pid === 0) {
    fclose($mine);
    $w = new RSemaphore('late', 1, $o + ['read_timeout' => 10000]);
    $got = $w->acquire(1, 15000 * $slow);
    fwrite($theirs, json_encode(['got' => $got, 'at' => microtime(true), 'held' => $w->held()]) . "\n");
    exit(0);
}
fclose($theirs);
$deadline = microtime(true) + 10 * $slow;
while (rlock_test_cmd('LLEN', "$h-queue") !== 1
        || !preg_match('/^blocked_clients:[1-9]/m', rlock_test_cmd('INFO', 'clients'))) {
    if (microtime(true) > $deadline) {
        die("the child never queued\n");
    }
    usleep(5000);
}
exec("kill -STOP $pid");
// stopped until its ticket's deadline (by the server's clock) has passed
$ticket = rlock_test_cmd('HGETALL', "$h-waiters");
$dl = (int) explode(' ', $ticket[1])[2];
do {
    usleep(20000);
    [$sec, $usec] = rlock_test_cmd('TIME');
} while ((int) $sec * 1000 + intdiv((int) $usec, 1000) <= $dl + 50);
$t0 = microtime(true);
exec("kill -CONT $pid");
$child = json_decode(fgets($mine), true);
echo "child got 1: ", var_export($child['got'] && $child['held'] === 1, true), "\n";
// not the rest of its 15 s wait (12 s)
echo "at once: ", var_export(($child['at'] - $t0) * 1000 < 2000 * $slow, true), "\n";
pcntl_waitpid($pid, $status);
var_dump(rlock_test_exit($status), rlock_test_cmd('EXISTS', "$h-queue", "$h-waiters"));
?>
--EXPECT--
bool(true)
child got 1: true
at once: true
int(0)
int(0)
