--TEST--
RSemaphore: a waiter killed in the queue and then served holds its permit only for its own lease: the waiter behind it is served when that lease ends (500 ms), not when its own round does (10 s), although nobody releases
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$o = rlock_test_options();
$queue = rlock_test_companion($o['prefix'] . 'dead-served', 'semaphore') . '-queue';
$await = function (int $n) use ($queue, $slow) {
    for ($deadline = microtime(true) + 10 * $slow; rlock_test_cmd('LLEN', $queue) < $n;) {
        if (microtime(true) > $deadline) {
            die("$n waiters never queued\n");
        }
        usleep(2000);
    }
};
$holder = new RSemaphore('dead-served', 1, $o + ['ttl' => 60000]);
var_dump($holder->acquire());
// first in the queue: a waiter whose lease is 500 ms, killed while it waits
$dead = pcntl_fork();
if ($dead === 0) {
    (new RSemaphore('dead-served', 1, $o + ['ttl' => 500 * $slow]))->acquire(1, 30000 * $slow);
    exit(0);
}
$await(1);
$out = tempnam(sys_get_temp_dir(), 'rlock-phpt-559-');
$next = pcntl_fork();
if ($next === 0) {
    $s = new RSemaphore('dead-served', 1, $o);
    $got = $s->acquire(1, 10000 * $slow);
    file_put_contents($out, json_encode([$got, microtime(true)]));
    exit(0);
}
$await(2);
exec("kill -KILL $dead");
pcntl_waitpid($dead, $status);
echo "killed: ", var_export(pcntl_wifsignaled($status), true), "\n";
// the release serves the dead waiter (its ticket is live), whose permit ends with its lease
$t0 = microtime(true);
var_dump($holder->release());
pcntl_waitpid($next, $status);
[$got, $at] = json_decode(file_get_contents($out));
unlink($out);
echo "next: exit ", rlock_test_exit($status), ", got ", var_export($got, true), "\n";
// before: 10 s, the next waiter's whole round
$ms = ($at - $t0) * 1000;
echo "served within the dead one's lease and a second: ", var_export($ms < 1500 * $slow, true), $ms < 1500 * $slow ? '' : " ($ms ms)", "\n";
?>
--EXPECT--
bool(true)
killed: true
bool(true)
next: exit 0, got true
served within the dead one's lease and a second: true
