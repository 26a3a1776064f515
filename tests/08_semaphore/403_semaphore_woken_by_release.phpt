--TEST--
RSemaphore: a waiter blocked in acquire() in another process (a BLPOP, no polling) is woken by the release that frees its permits
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
$a = new RSemaphore('wake', 3, $o);
var_dump($a->acquire(2));
$h = rlock_test_companion($o['prefix'] . 'wake', 'semaphore');

[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = pcntl_fork();
if ($pid === 0) {
    fclose($mine);
    $w = new RSemaphore('wake', 3, $o);
    $got = $w->acquire(2, 15000 * $slow);
    fwrite($theirs, json_encode(['got' => $got, 'at' => microtime(true), 'held' => $w->held()]) . "\n");
    fgets($theirs);
    exit(0);
}
fclose($theirs);
// wait (with a deadline) until the child is queued and blocked
$deadline = microtime(true) + 10 * $slow;
while (rlock_test_cmd('LLEN', "$h-queue") !== 1
        || !preg_match('/^blocked_clients:[1-9]/m', rlock_test_cmd('INFO', 'clients'))) {
    if (microtime(true) > $deadline) {
        die("the child never queued\n");
    }
    usleep(5000);
}
$t0 = microtime(true);
var_dump($a->release());
$child = json_decode(fgets($mine), true);
echo "child got 2: ", var_export($child['got'] && $child['held'] === 2, true), "\n";
echo "within a short bound: ", var_export(($child['at'] - $t0) * 1000 < 3000 * $slow, true), "\n";
var_dump($a->available());
fwrite($mine, "done\n");
pcntl_waitpid($pid, $status);
// the child's exit released its permits
var_dump(rlock_test_exit($status), $a->available(), rlock_test_cmd('EXISTS', $h, "$h-queue", "$h-waiters"));
?>
--EXPECT--
bool(true)
bool(true)
child got 2: true
within a short bound: true
int(1)
int(0)
int(3)
int(0)
