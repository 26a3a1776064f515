--TEST--
RRateLimiter: with "fair" (the default), acquire() reserves its permits in the one round trip that finds them due within its wait: waiters are served in order of arrival, and a newcomer takes nothing they reserved
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
// one permit per 500 ms (more under valgrind: the four must queue within four of them), all taken now
$period = 500 * $slow;
$l = new RRateLimiter('queue', 1, $period, $o);
var_dump($l->tryAcquire());
$key = rlock_test_companion($o['prefix'] . 'queue', 'rate');
[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pids = [];
for ($i = 1; $i <= 4; $i++) {
    $before = rlock_test_cmd('GET', $key);
    $pid = pcntl_fork();
    if ($pid === 0) {
        fclose($mine);
        $got = (new RRateLimiter('queue', 1, $period, $o))->acquire(1, 20000 * $slow);
        fwrite($theirs, "$i " . ($got ? 'got it' : 'refused') . "\n");
        exit(0);
    }
    $pids[] = $pid;
    // the next waiter comes once this one has reserved its permit (the TAT moved on)
    $deadline = microtime(true) + 10 * $slow;
    while (rlock_test_cmd('GET', $key) === $before) {
        if (microtime(true) > $deadline) {
            die("waiter $i never reserved\n");
        }
        usleep(1000);
    }
}
fclose($theirs);
// reserved: a newcomer gets nothing before them
var_dump($l->tryAcquire());
echo $l->retryAfter() > 3 * $period ? "the newcomer comes after the four\n" : "retryAfter {$l->retryAfter()}\n";
for ($i = 1; $i <= 4; $i++) {
    echo fgets($mine);
}
foreach ($pids as $pid) {
    pcntl_waitpid($pid, $status);
}
?>
--EXPECT--
bool(true)
bool(false)
the newcomer comes after the four
1 got it
2 got it
3 got it
4 got it
