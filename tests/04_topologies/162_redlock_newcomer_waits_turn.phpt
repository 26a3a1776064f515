--TEST--
Redlock waiters in order: a newcomer does not jump a waiter queued on the masters; right after the holder's release, tryLock() is false (the waiter's turn, though it is slow to come) and the waiter gets the lock
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
$m = [rlock_test_own_server(), rlock_test_own_server(), rlock_test_own_server()];
$o = ['servers' => array_column($m, 'dsn'), 'ttl' => 30000, 'read_timeout' => 1000 * $slow, 'prefix' => 'f162:'];
$blocked = fn () => array_sum(array_map(fn ($s) => preg_match('/^blocked_clients:([0-9]+)/m', $s['cmd']('INFO', 'clients'), $x) ? (int) $x[1] : 0, $m));
$holder = new RLock('k', $o);
var_dump($holder->lock());

[$up, $down] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = pcntl_fork();
if ($pid === 0) {
    fclose($up);
    $w = new RLock('k', $o);
    $got = $w->lock(20000 * $slow);
    fwrite($down, json_encode(['got' => $got]) . "\n");
    fgets($down);
    $w->unlock();
    exit(0);
}
fclose($down);
for ($deadline = microtime(true) + 10 * $slow; $blocked() === 0;) {
    if (microtime(true) > $deadline) {
        die("the waiter never blocked\n");
    }
    usleep(5000);
}
// the release frees the masters and wakes the waiter, which is slow to come (stopped): a
// newcomer right after the release waits its turn all the same
exec("kill -STOP $pid");
var_dump($holder->unlock());
$newcomer = new RLock('k', $o);
var_dump($newcomer->tryLock());
exec("kill -CONT $pid");
echo 'the waiter: ', fgets($up);
fwrite($up, "done\n");
// and once the waiter let go, the newcomer gets it
var_dump($newcomer->lock(10000 * $slow));
$newcomer->unlock();
pcntl_waitpid($pid, $status);
var_dump(rlock_test_exit($status));
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
the waiter: {"got":true}
bool(true)
int(0)
