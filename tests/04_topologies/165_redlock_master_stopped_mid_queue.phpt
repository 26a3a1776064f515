--TEST--
Redlock waiters in order: the master a waiter blocks on stops answering (SIGSTOP) while it waits; once the holder's release returns, the waiter gets the lock from the other two within one read timeout and one round, not at the end of its wait
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
$timeout = 500 * $slow;
$o = ['servers' => array_column($m, 'dsn'), 'ttl' => 60000, 'read_timeout' => $timeout, 'prefix' => 'f165:'];
$blockedOn = fn ($s) => preg_match('/^blocked_clients:([0-9]+)/m', $s['cmd']('INFO', 'clients'), $x) ? (int) $x[1] : 0;
$holder = new RLock('k', $o);
var_dump($holder->lock());

[$up, $down] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = pcntl_fork();
if ($pid === 0) {
    fclose($up);
    $w = new RLock('k', $o);
    $got = $w->lock(40000 * $slow);
    fwrite($down, json_encode(['got' => $got, 'at' => microtime(true)]) . "\n");
    fgets($down);
    exit(0);
}
fclose($down);
// stop the master the waiter blocks on
for ($deadline = microtime(true) + 10 * $slow, $on = null; $on === null;) {
    foreach ($m as $s) {
        if ($blockedOn($s) > 0) {
            $on = $s;
            break;
        }
    }
    if (microtime(true) > $deadline) {
        die("the waiter never blocked\n");
    }
    usleep(2000);
}
exec("kill -STOP {$on['pid']}");
// the release waits a read timeout for the stopped master; then the waiter's round on it
// ends (a quarter of a read timeout) and its vote waits a read timeout for it too
var_dump($holder->unlock());
$t0 = microtime(true);
$child = json_decode(fgets($up), true);
$ms = ($child['at'] - $t0) * 1000;
// a read timeout and a round past the release, and room for a loaded machine; before: the
// whole wait (40 s)
echo 'the waiter got it: ', var_export($child['got'], true), ', within a read timeout and a round: ',
    var_export($ms < $timeout + $timeout / 4 + 1500 * $slow, true), "\n";
exec("kill -CONT {$on['pid']}");
fwrite($up, "done\n");
pcntl_waitpid($pid, $status);
var_dump(rlock_test_exit($status));
?>
--EXPECT--
bool(true)
bool(true)
the waiter got it: true, within a read timeout and a round: true
int(0)
