--TEST--
RLock::forceUnlock() of another owner's lock serves a waiter blocked in another process as a release does: handed the lock (a greater fencing token), or woken with fair off
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
foreach ([true, false] as $fair) {
    echo "fair: ", var_export($fair, true), "\n";
    $o = rlock_test_options(['ttl' => 20000, 'fencing' => true, 'fair' => $fair, 'reentrant' => false]);
    $name = 'forced-' . (int) $fair;
    $holder = new RLock($name, $o);
    var_dump($holder->lock());
    $tag = fn (string $role) => rlock_test_companion($holder->key(), $role);

    [$up, $down] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    $pid = pcntl_fork();
    if ($pid === 0) {
        fclose($up);
        $w = new RLock($name, $o);
        $got = $w->lock(15000 * $slow);
        fwrite($down, json_encode(['got' => $got, 'at' => microtime(true), 'fence' => $w->fencingToken(),
            'held' => $w->isAcquired()]) . "\n");
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
    var_dump((new RLock($name, $o))->forceUnlock());
    $child = json_decode(fgets($up), true);
    echo "the waiter got it at once: ", var_export($child['got'] && $child['held'] && ($child['at'] - $t0) * 1000 < 3000 * $slow, true), "\n";
    echo "a greater fencing token: ", var_export($child['fence'] > $holder->fencingToken(), true), "\n";
    var_dump($holder->unlock(), $holder->lost());
    fwrite($up, "done\n");
    pcntl_waitpid($pid, $status);
    var_dump(pcntl_wexitstatus($status));
    rlock_test_cmd('DEL', $tag('fence'));
}
?>
--EXPECT--
fair: true
bool(true)
bool(true)
the waiter got it at once: true
a greater fencing token: true
bool(false)
bool(true)
int(0)
fair: false
bool(true)
bool(true)
the waiter got it at once: true
a greater fencing token: true
bool(false)
bool(true)
int(0)
