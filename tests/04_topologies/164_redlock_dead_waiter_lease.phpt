--TEST--
Redlock waiters in order: a waiter killed while queued (SIGKILL) holds up the queue no longer than its place's lease (3 read timeouts and a connect timeout), not for the holder's ttl: the waiter behind it gets the lock
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
$timeout = 300 * $slow;
$o = ['servers' => array_column($m, 'dsn'), 'ttl' => 60000, 'read_timeout' => $timeout, 'connect_timeout' => $timeout, 'prefix' => 'f164:'];
$lease = 4 * $timeout;
$blocked = fn () => array_sum(array_map(fn ($s) => preg_match('/^blocked_clients:([0-9]+)/m', $s['cmd']('INFO', 'clients'), $x) ? (int) $x[1] : 0, $m));
$holder = new RLock('k', $o);
var_dump($holder->lock());

$waiter = function () use ($o, $slow) {
    [$up, $down] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    $pid = pcntl_fork();
    if ($pid === 0) {
        fclose($up);
        $w = new RLock('k', $o);
        $got = $w->lock(50000 * $slow);
        fwrite($down, json_encode(['got' => $got, 'at' => microtime(true)]) . "\n");
        exit(0);
    }
    fclose($down);
    return [$pid, $up];
};
$await = function (int $n) use ($blocked, $slow) {
    for ($deadline = microtime(true) + 10 * $slow; $blocked() < $n;) {
        if (microtime(true) > $deadline) {
            die("waiter $n never blocked\n");
        }
        usleep(5000);
    }
};
[$dead] = $waiter();
$await(1);
[$pid, $up] = $waiter();
$await(2);
// the first in the queue dies where it waits; the holder lets go
exec("kill -KILL $dead");
pcntl_waitpid($dead, $status);
echo 'killed: ', rlock_test_exit($status), "\n";
$t0 = microtime(true);
var_dump($holder->unlock());
$child = json_decode(fgets($up), true);
$ms = ($child['at'] - $t0) * 1000;
// its place's lease, a round of the waiter behind it, and room for a loaded machine
echo 'the next waiter got it: ', var_export($child['got'], true), ', within the dead one\'s lease: ',
    var_export($ms < $lease + 2000 * $slow, true), "\n";
pcntl_waitpid($pid, $status);
var_dump(rlock_test_exit($status));
?>
--EXPECT--
bool(true)
killed: signal 9
bool(true)
the next waiter got it: true, within the dead one's lease: true
int(0)
