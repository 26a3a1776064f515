--TEST--
A hand-over to a plain waiter that is not blocked at that moment (woken by a release that freed the key for a multi waiter, not yet back) waits on the list for it: a multi lock's waiter that starts waiting then does not pop it (it never adopts a grant: the key would stay held by nobody for a whole ttl), and the plain waiter takes it when it comes back
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
// a long lease: a hand-over lost would hold 'a' past every wait below
$o = ['server' => $srv['dsn'], 'prefix' => 'p:', 'fair' => true, 'ttl' => 60000];
$grants = rlock_test_companion('p:a', 'grants');
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
// child: lock() of $kind (keys), then report, unlock at once, report again
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

// a plain waiter and a multi waiter on 'a'; the plain waiter is then stopped (its BLPOP
// stays in Redis, which hands it whatever comes first)
$pids = [$plain = $child('plain', ['a'], 4000 * $slow), $child('multi', ['a', 'b'], 4000 * $slow)];
$blocked(2);
exec("kill -STOP $plain");
// the release frees 'a' (a multi lock waits for it) and wakes both: the plain waiter is
// woken but stopped; the multi waiter takes a and b, and its release hands 'a' to the
// plain waiter, who is not there to pop it
var_dump($h->unlock());
echo $line(), "\n", $line(), "\n";
echo "a hand-over waits: ", $cmd('LLEN', $grants), "\n";

// a multi lock starts waiting for a and b now
$pids[] = $child('late multi', ['b', 'a'], 4000 * $slow);
$blocked(1);
echo "the hand-over still waits: ", $cmd('LLEN', $grants), "\n";
exec("kill -CONT $plain");
// (the late multi's lines may come before the plain's last: sorted)
$seen = [];
for ($i = 0; $i < 4; $i++) {
    $seen[] = $line();
}
sort($seen);
echo implode("\n", $seen), "\n";
foreach ($pids as $pid) {
    pcntl_waitpid($pid, $status);
}
var_dump($cmd('EXISTS', 'p:a', 'p:b'));
?>
--EXPECT--
bool(true)
bool(true)
multi got true
multi unlocked true
a hand-over waits: 1
the hand-over still waits: 1
late multi got true
late multi unlocked true
plain got true
plain unlocked true
int(0)
