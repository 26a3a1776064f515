--TEST--
A waiter handed the lock on release gets a fencing token greater than the releasing holder's
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
$o = rlock_test_options(['ttl' => 20000, 'fencing' => true]);
$l = new RLock('fenced', $o);
var_dump($l->lock());
$mine = $l->fencingToken();
$tag = fn (string $role) => rlock_test_companion($l->key(), $role);

[$up, $down] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = pcntl_fork();
if ($pid === 0) {
    fclose($up);
    $w = new RLock('fenced', $o);
    $got = $w->lock(15000);
    fwrite($down, json_encode(['got' => $got, 'fence' => $w->fencingToken()]) . "\n");
    exit(0);
}
fclose($down);
$deadline = microtime(true) + 10 * $slow;
while (rlock_test_cmd('GET', $tag('waiters')) !== '1'
        || !preg_match('/^blocked_clients:[1-9]/m', rlock_test_cmd('INFO', 'clients'))) {
    if (microtime(true) > $deadline) {
        die("the child never queued\n");
    }
    usleep(5000);
}
var_dump($l->unlock());
$child = json_decode(fgets($up), true);
pcntl_waitpid($pid, $status);
var_dump($child['got'], is_int($child['fence']) && $child['fence'] > $mine);
// and the next holder's is greater still
var_dump($l->lock(), $l->fencingToken() > $child['fence'], $l->unlock());
rlock_test_cmd('DEL', $tag('fence'));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
