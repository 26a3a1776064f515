--TEST--
RSemaphore: first come, first served: a waiter for 3 permits is not starved by 1-permit takers, who queue behind it though 1 is free
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
$a = new RSemaphore('fifo', 3, $o);
$b = new RSemaphore('fifo', 3, $o);
var_dump($a->acquire(2));
$h = rlock_test_companion($o['prefix'] . 'fifo', 'semaphore');

[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = pcntl_fork();
if ($pid === 0) {
    fclose($mine);
    $w = new RSemaphore('fifo', 3, $o);
    $got = $w->acquire(3, 15000);
    fwrite($theirs, json_encode(['got' => $got, 'held' => $w->held()]) . "\n");
    fgets($theirs);
    exit(0);
}
fclose($theirs);
$deadline = microtime(true) + 10 * $slow;
while (rlock_test_cmd('LLEN', "$h-queue") !== 1) {
    if (microtime(true) > $deadline) {
        die("the child never queued\n");
    }
    usleep(5000);
}
// 1 permit is free, but the waiter for 3 came first
var_dump($a->available(), $b->tryAcquire(1), $b->acquire(1, 50));
var_dump($a->release());
$child = json_decode(fgets($mine), true);
echo "the waiter for 3 got them: ", var_export($child['got'] && $child['held'] === 3, true), "\n";
var_dump($b->tryAcquire(1));
fwrite($mine, "done\n");
pcntl_waitpid($pid, $status);
var_dump($b->tryAcquire(1));
?>
--EXPECT--
bool(true)
int(1)
bool(false)
bool(false)
bool(true)
the waiter for 3 got them: true
bool(false)
bool(true)
