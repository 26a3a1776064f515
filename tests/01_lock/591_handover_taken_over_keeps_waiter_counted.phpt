--TEST--
A hand-over to a plain waiter that is not blocked at that moment (woken by a release that freed the key for a multi waiter, not yet back), taken over by a newcomer, leaves that waiter counted: the newcomer's release hands the key to it, not freeing it while it blocks for the rest of its wait
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
$srv = rlock_test_own_server();
$cmd = $srv['cmd'];
$o = ['server' => $srv['dsn'], 'prefix' => 'p:', 'fair' => true, 'ttl' => 60000];
$blocked = function (int $n) use ($cmd, $slow): void {
    for ($deadline = microtime(true) + 10 * $slow; !preg_match("/^blocked_clients:$n\r?$/m", $cmd('INFO', 'clients'));) {
        if (microtime(true) > $deadline) {
            die("never $n blocked\n");
        }
        usleep(2000);
    }
};

$h = new RLock('a', $o);
var_dump($h->lock());

[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$child = function (string $kind, array $keys, int $wait) use ($o, $theirs, $mine): int {
    $pid = pcntl_fork();
    if ($pid === 0) {
        fclose($mine);
        $l = count($keys) === 1 ? new RLock($keys[0], $o) : RLock::multi($keys, $o);
        $got = $l->lock($wait);
        fwrite($theirs, "$kind got " . json_encode($got) . "\n");
        fwrite($theirs, "$kind unlocked " . json_encode($got && $l->unlock()) . "\n");
        exit(0);
    }
    return $pid;
};
$line = function () use ($mine): string {
    return trim((string) fgets($mine));
};

// as in 590: the plain waiter is woken while stopped, the multi waiter takes a and b and
// hands 'a' over to the plain waiter, who is not there to pop it. Its wait is long: a wait
// that only its own end would end shows as a report that never comes
$pids = [$plain = $child('plain', ['a'], 60000), $child('multi', ['a', 'b'], 4000 * $slow)];
$blocked(2);
exec("kill -STOP $plain");
var_dump($h->unlock());
echo $line(), "\n", $line(), "\n";

// a newcomer takes the hand-over over, and holds 'a' while the plain waiter comes back
$n = new RLock('a', $o);
var_dump($n->lock(0));
exec("kill -CONT $plain");
$blocked(1);
var_dump($n->unlock());
stream_set_timeout($mine, 10 * $slow);
for ($i = 0; $i < 2; $i++) {
    echo $line() ?: 'the plain waiter was never served', "\n";
}
// each child ends on its own once served; one still there after a while is killed (not one
// that is ending: a sanitizer build's leak check runs at its exit)
foreach ($pids as $pid) {
    for ($until = microtime(true) + 10 * $slow; pcntl_waitpid($pid, $status, WNOHANG) === 0; usleep(10000)) {
        if (microtime(true) > $until) {
            exec("kill -KILL $pid");
            pcntl_waitpid($pid, $status);
            break;
        }
    }
}
var_dump($cmd('EXISTS', 'p:a', 'p:b'));
?>
--EXPECT--
bool(true)
bool(true)
multi got true
multi unlocked true
bool(true)
bool(true)
plain got true
plain unlocked true
int(0)
