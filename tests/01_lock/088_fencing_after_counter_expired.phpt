--TEST--
Fencing tokens keep increasing when the fencing counter has expired (deleted, or let expire) between holders and before a hand-over; a token is the server's clock in microseconds, or one more than a counter ahead of it; the counter expires ttl + 10 s after its last token
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$o = rlock_test_options(['fencing' => true, 'ttl' => 5000]);
$l = new RLock('f', $o);
$fence = rlock_test_companion($l->key(), 'fence');
$us = function (): int {
    [$s, $u] = rlock_test_cmd('TIME');
    return (int) $s * 1000000 + (int) $u;
};
$take = function () use ($l): int {
    if (!$l->lock()) {
        die("not taken\n");
    }
    $f = $l->fencingToken();
    $l->unlock();
    return $f;
};

// the server's clock, and a counter that expires
$before = $us();
$f = $take();
var_dump($before <= $f && $f <= $us());
$pttl = rlock_test_cmd('PTTL', $fence);
var_dump($pttl > 5000 && $pttl <= 15000);

// the counter deleted, or expired, between two holders
rlock_test_cmd('DEL', $fence);
var_dump(($g = $take()) > $f);
rlock_test_cmd('PEXPIRE', $fence, '1');
for ($deadline = microtime(true) + 5 * $slow; rlock_test_cmd('EXISTS', $fence) && microtime(true) < $deadline;) {
    usleep(1000);
}
var_dump(($h = $take()) > $g);

// a counter from before (small numbers) does not take the tokens back
rlock_test_cmd('SET', $fence, '7');
var_dump(($i = $take()) > $h);

// a counter ahead of the clock (a clock since stepped back): one more than the counter
$ahead = $i + 3600 * 1000000;
rlock_test_cmd('SET', $fence, (string) $ahead);
var_dump($take() === $ahead + 1);
rlock_test_cmd('DEL', $fence);

// a hand-over to a waiter after the counter expired
var_dump($l->lock());
$mine = $l->fencingToken();
rlock_test_cmd('DEL', $fence);
[$up, $down] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = pcntl_fork();
if ($pid === 0) {
    fclose($up);
    $w = new RLock('f', $o);
    $got = $w->lock(10000 * $slow);
    fwrite($down, json_encode(['got' => $got, 'fence' => $w->fencingToken()]) . "\n");
    exit(0);
}
fclose($down);
$waiters = rlock_test_companion($l->key(), 'waiters');
for ($deadline = microtime(true) + 10 * $slow; rlock_test_cmd('GET', $waiters) !== '1'
        || !preg_match('/^blocked_clients:[1-9]/m', rlock_test_cmd('INFO', 'clients'));) {
    if (microtime(true) > $deadline) {
        die("the child never queued\n");
    }
    usleep(5000);
}
var_dump($l->unlock());
$child = json_decode(fgets($up), true);
pcntl_waitpid($pid, $status);
var_dump($child['got'], $child['fence'] > $mine);
rlock_test_cmd('DEL', $fence);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
