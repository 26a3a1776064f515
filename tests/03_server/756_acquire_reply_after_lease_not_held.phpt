--TEST--
A lock whose acquire reply comes only after its lease ran out (by the caller's own clock: the reply took longer than the ttl) is not taken: tryLock() is false and gives back nothing of another's. It was true while another process held the lock (two owners inside), though the lock knew its lease had ended before the reply came
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../cut_relay.inc';
$ttl = 300 * rlock_test_slow();
$o = rlock_test_options(['ttl' => $ttl]);
$key = $o['prefix'] . 'x';
// the reply to the SET that took the key, held back until another process has the lock
$relay = rlock_cut_relay(RLOCK_TEST_PORT, function (string $chunk) use ($key) {
    static $done = false;
    if ($done || $chunk !== "+OK\r\n" || rlock_test_cmd('EXISTS', $key) !== 1) {
        return null;
    }
    $done = true;
    // until the key holds another token than the first taker's (B's, below; a waiter's
    // "+" on the key is no other token)
    $first = rtrim((string) rlock_test_cmd('GET', $key), '+');
    for ($deadline = microtime(true) + 30; microtime(true) < $deadline;) {
        $now = rlock_test_cmd('GET', $key);
        $now = $now === null ? null : rtrim($now, '+');
        if ($now !== null && $now !== $first) {
            break;
        }
        usleep(5000);
    }
    return null;
}, true);

[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = pcntl_fork();
if ($pid === 0) {
    // B: once A has taken the key, takes the lock when A's lease has run out in Redis, and
    // holds it until A's call has returned (released at once, the relay could miss it)
    fclose($mine);
    for ($deadline = microtime(true) + 30; rlock_test_cmd('EXISTS', $key) !== 1 && microtime(true) < $deadline;) {
        usleep(1000);
    }
    $b = new RLock('x', $o);
    fwrite($theirs, $b->lock(30000) ? 'in' : 'out');
    fread($theirs, 1);
    exit(0);
}
fclose($theirs);
$a = new RLock('x', ['server' => $relay['dsn'], 'read_timeout' => 30000] + $o);
var_dump($a->tryLock(), $a->token());
echo 'B got in: ', var_export(fread($mine, 3) === 'in', true), "\n";
fclose($mine);
pcntl_waitpid($pid, $status);
?>
--EXPECT--
bool(false)
NULL
B got in: true
