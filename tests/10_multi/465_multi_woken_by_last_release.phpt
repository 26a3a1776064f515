--TEST--
RLock::multi waiting in another process holds none of its keys while it waits, is woken (not by polling) by each release of a key it waits on, and takes them all at the release of the last
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
function commands(): int {
    preg_match_all('/^cmdstat_(?:evalsha|eval|blpop):calls=(\d+)/m', rlock_test_cmd('INFO', 'commandstats'), $m);
    return array_sum($m[1]);
}
$o = rlock_test_options(['ttl' => 20000, 'retry_delay' => 10]);
$p = $o['prefix'];
$a = new RLock('a', $o);
$b = new RLock('b', $o);
var_dump($a->lock(), $b->lock());

[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = pcntl_fork();
if ($pid === 0) {
    fclose($mine);
    $m = RLock::multi(['b', 'a'], $o);
    $got = $m->lock(15000 * $slow);
    fwrite($theirs, json_encode(['got' => $got, 'at' => microtime(true), 'token' => $m->token()]) . "\n");
    fgets($theirs);
    exit(0);
}
fclose($theirs);
$blocked = function () use ($slow) {
    $deadline = microtime(true) + 10 * $slow;
    while (!preg_match('/^blocked_clients:1/m', rlock_test_cmd('INFO', 'clients'))) {
        if (microtime(true) > $deadline) {
            die("the child never blocked\n");
        }
        usleep(2000);
    }
};
$blocked();
$before = commands();
var_dump($a->unlock());
// woken, it tried again (its script and BLPOP after the release's: 3 commands at least)
// and waits on b: a waiter never woken would still be blocked from before
$deadline = microtime(true) + 10 * $slow;
while (commands() - $before < 3) {
    if (microtime(true) > $deadline) {
        die("the child was never woken\n");
    }
    usleep(2000);
}
$blocked();
var_dump(rlock_test_cmd('GET', "{$p}a"));   // and holds nothing meanwhile
usleep(300000);         // b held a while: a waiter that polled would ask Redis every ~10 ms
$t0 = microtime(true);
var_dump($b->unlock());
$child = json_decode(fgets($mine), true);
$n = commands() - $before;
echo "child got both: ", var_export($child['got'] && rlock_test_cmd('GET', "{$p}a") === $child['token']
    && rlock_test_cmd('GET', "{$p}b") === $child['token'], true), "\n";
echo "within a short bound: ", var_export(($child['at'] - $t0) * 1000 < 3000 * $slow, true), "\n";
echo "few round trips: ", var_export($n <= 8, true), $n > 8 ? " ($n)" : '', "\n";
fwrite($mine, "done\n");
pcntl_waitpid($pid, $status);
var_dump(rlock_test_exit($status), rlock_test_cmd('EXISTS', "{$p}a", "{$p}b"));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
NULL
bool(true)
child got both: true
within a short bound: true
few round trips: true
int(0)
int(0)
