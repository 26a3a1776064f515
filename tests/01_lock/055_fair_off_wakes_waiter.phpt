--TEST--
fair => false: a release still wakes a blocked waiter in another process at once
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
$o = rlock_test_options(['ttl' => 20000, 'fair' => false]);
$l = new RLock('unfair', $o);
var_dump($l->lock());
$tag = fn (string $role) => rlock_test_companion($l->key(), $role);

[$up, $down] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = pcntl_fork();
if ($pid === 0) {
    fclose($up);
    $w = new RLock('unfair', $o);
    $got = $w->lock(15000 * $slow);
    fwrite($down, json_encode(['got' => $got, 'at' => microtime(true)]) . "\n");
    fgets($down);
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
$t0 = microtime(true);
var_dump($l->unlock());
$child = json_decode(fgets($up), true);
echo "woken: ", var_export($child['got'], true), ", within a short bound: ", var_export(($child['at'] - $t0) * 1000 < 3000 * $slow, true), "\n";
fwrite($up, "done\n");
pcntl_waitpid($pid, $status);
var_dump(rlock_test_cmd('EXISTS', $l->key(), $tag('waiters'), $tag('grants')));
?>
--EXPECT--
bool(true)
bool(true)
woken: true, within a short bound: true
int(0)
