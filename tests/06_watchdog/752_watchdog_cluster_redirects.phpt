--TEST--
watchdog with "cluster": a renewal answered with a malformed MOVED or ASK (port 0 or past 65535, no address, a host of 300 bytes or with a control byte) is a failed renewal, tried again, never followed; a well-formed MOVED (its empty host: the node that answered) is followed, and the key is renewed on the node it names
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../fake_redis.inc';
require __DIR__ . '/../watchdog.inc';
$s = rlock_test_slow();
$real = rlock_test_own_server();
$junk = ["-MOVED 1 127.0.0.1:0\r\n", "-MOVED 1 127.0.0.1:99999\r\n", "-MOVED\r\n", "-ASK 1 :abc\r\n",
    "-MOVED 1 " . str_repeat('h', 300) . ":7000\r\n", "-ASK 1 bad\x01host:7000\r\n", "-MOVED 1 127.0.0.1:\r\n"];
// one node serving every slot: it grants the lock (SET), and answers renewals with the junk,
// then with a MOVED to the real server (a renewal: the renew script with 2 keys, the key and
// its fencing counter's place)
$fake = rlock_fake_redis(function (array $argv, int $n, array $me) use ($junk, $real): string {
    static $renewals = 0;
    return match (strtoupper($argv[0])) {
        'CLUSTER' => rlock_resp([[0, 16383, ['127.0.0.1', $me['port']]]]),
        'SET' => "+OK\r\n",
        'EVALSHA', 'EVAL' => $argv[2] === '2' ? ($junk[$renewals++] ?? "-MOVED 1 :{$real['port']}\r\n") : ":1\r\n",
        default => "+OK\r\n",
    };
});
$ttl = 600 * $s;
$l = new RLock('k', ['cluster' => [$fake['addr']], 'ttl' => $ttl, 'watchdog' => true, 'read_timeout' => 2000 * $s]);
var_dump($l->tryLock());
// the real server has our key, with a lease far longer than ttl: a renewal there sets it to ttl
$real['cmd']('SET', $l->key(), $l->token(), 'PX', '600000');
for ($deadline = hrtime(true) + 20e9 * $s; $real['cmd']('PTTL', $l->key()) > $ttl && hrtime(true) < $deadline;) {
    rlock_test_sleep(10);
}
var_dump($real['cmd']('PTTL', $l->key()) <= $ttl, $l->lost());
var_dump(rlock_test_info('Watchdog renewals that failed') >= count($junk));
$renews = array_filter($fake['commands'](), fn ($c) => strtoupper($c[0]) === 'EVALSHA' && $c[2] === '2');
echo count($renews) > count($junk) ? "the fake asked past its junk\n" : "too few renewals on the fake\n";
var_dump($l->unlock());
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
bool(true)
the fake asked past its junk
bool(true)
