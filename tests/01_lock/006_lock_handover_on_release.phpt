--TEST--
A waiter blocked in lock() in another process is handed the lock as soon as the holder unlocks
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
$l = new RLock('handover', $o);
var_dump($l->lock());
$tag = fn (string $role) => rlock_test_companion($l->key(), $role);

[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = pcntl_fork();
if ($pid === 0) {
    // the child talks to Redis only through rlock: the parent's test socket is not its own
    fclose($mine);
    $w = new RLock('handover', $o);
    $got = $w->lock(15000 * $slow);
    fwrite($theirs, json_encode(['got' => $got, 'at' => microtime(true), 'token' => $w->token()]) . "\n");
    fgets($theirs);  // hold the lock until the parent has looked
    exit(0);
}
fclose($theirs);

// wait (with a deadline) until the child is queued and blocked on the grants list
$deadline = microtime(true) + 10 * $slow;
while (rlock_test_cmd('GET', $tag('waiters')) !== '1'
        || !preg_match('/^blocked_clients:[1-9]/m', rlock_test_cmd('INFO', 'clients'))) {
    if (microtime(true) > $deadline) {
        die("the child never queued\n");
    }
    usleep(5000);
}
$mytoken = $l->token();
$t0 = microtime(true);
var_dump($l->unlock());
$child = json_decode(fgets($mine), true);
$ms = ($child['at'] - $t0) * 1000;
echo "child got it: ", var_export($child['got'], true), "\n";
echo "within a short bound: ", var_export($ms < 3000 * $slow, true), "\n";
echo "the child's own token: ", var_export($child['token'] !== $mytoken && rlock_test_cmd('GET', $l->key()) === $child['token'], true), "\n";
var_dump($l->tryLock());
fwrite($mine, "done\n");
pcntl_waitpid($pid, $status);
var_dump(rlock_test_exit($status));
// the child's exit released its lock; no companion key is left
var_dump(rlock_test_cmd('EXISTS', $l->key(), $tag('waiters'), $tag('grants')));
?>
--EXPECT--
bool(true)
bool(true)
child got it: true
within a short bound: true
the child's own token: true
bool(false)
int(0)
int(0)
