--TEST--
RLock::forceUnlock() with "servers" (Redlock): deletes the lock on every master whoever holds it, true when a quorum held it, and wakes a waiter blocked in another process
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
$o = ['servers' => array_column($m, 'dsn'), 'ttl' => 20000, 'reentrant' => false, 'prefix' => 'f542:'];
$holder = new RLock('k', $o);
var_dump($holder->lock());
$key = $holder->key();
$everywhere = fn () => implode(' ', array_map(fn ($s) => $s['cmd']('EXISTS', $key), $m));

[$up, $down] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = pcntl_fork();
if ($pid === 0) {
    fclose($up);
    $w = new RLock('k', $o);
    $got = $w->lock(15000);
    fwrite($down, json_encode(['got' => $got, 'at' => microtime(true), 'held' => $w->isAcquired()]) . "\n");
    fgets($down);
    exit(0);
}
fclose($down);
// the waiter blocks on one master until a release wakes it
$deadline = microtime(true) + 10 * $slow;
while (array_sum(array_map(fn ($s) => preg_match('/^blocked_clients:[1-9]/m', $s['cmd']('INFO', 'clients')), $m)) === 0) {
    if (microtime(true) > $deadline) {
        die("the child never blocked\n");
    }
    usleep(5000);
}
$t0 = microtime(true);
var_dump((new RLock('k', $o))->forceUnlock());
$child = json_decode(fgets($up), true);
echo "the waiter got it at once: ", var_export($child['got'] && $child['held'] && ($child['at'] - $t0) * 1000 < 1000 * $slow, true), "\n";
var_dump($holder->unlock());
fwrite($up, "done\n");
pcntl_waitpid($pid, $status);
var_dump(pcntl_wexitstatus($status), $everywhere());
// a hold on one master only (a vote that failed) is no hold: false, and it is gone all the same
$m[2]['cmd']('SET', $key, str_repeat('b', 32), 'PX', '20000');
var_dump((new RLock('k', $o))->forceUnlock(), $everywhere());
// held on a quorum by two masters: true
$m[0]['cmd']('SET', $key, str_repeat('c', 32), 'PX', '20000');
$m[1]['cmd']('SET', $key, str_repeat('c', 32), 'PX', '20000');
var_dump((new RLock('k', $o))->forceUnlock(), $everywhere());
?>
--EXPECT--
bool(true)
bool(true)
the waiter got it at once: true
bool(false)
int(0)
string(5) "0 0 0"
bool(false)
string(5) "0 0 0"
bool(true)
string(5) "0 0 0"
