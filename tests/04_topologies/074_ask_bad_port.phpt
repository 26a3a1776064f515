--TEST--
An ASK redirect to port 0, -1, 65536, 99999999999, "abc", an empty port or none, a host with a space, a slot out of range or none: refused, and port 0 is never taken for a unix socket (no AUTH goes there)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../fake_redis.inc';
$secret = 'Sup3r-Secret-Pw';
// a socket where port 0 would make it a unix socket path: it must hear nothing
$sock = rlock_fake_redis(['AUTH' => "+OK\r\n", 'SET' => "+OK\r\n", 'ASKING' => "+OK\r\n"],
    'unix://' . sys_get_temp_dir() . '/rlock-phpt-074-' . getmypid() . '.sock');
$targets = [
    'port 0' => '3999 127.0.0.1:0',
    'port -1' => '3999 127.0.0.1:-1',
    'port 65536' => '3999 127.0.0.1:65536',
    'port 99999999999' => '3999 127.0.0.1:99999999999',
    'port abc' => '3999 127.0.0.1:abc',
    'empty port' => '3999 127.0.0.1:',
    'no port' => '3999 127.0.0.1',
    'host with a space' => '3999 127.0.0.1 x:7000',
    'slot 16384' => '16384 127.0.0.1:7000',
    'no slot' => '127.0.0.1:7000',
    'socket path, port 0' => '3999 ' . $sock['host'] . ':0',
];
foreach ($targets as $what => $target) {
    // one node serving every slot, which redirects the key elsewhere
    $fake = rlock_fake_redis(fn (array $argv, int $n, array $me) => match (strtoupper($argv[0])) {
        'CLUSTER' => rlock_resp([[0, 16383, ['127.0.0.1', $me['port']]]]),
        'AUTH', 'ASKING' => "+OK\r\n",
        'SET' => "-ASK $target\r\n",
        default => ":1\r\n",
    });
    try {
        $l = new RLock('k', ['cluster' => ["redis://:$secret@" . $fake['addr']], 'server' => "redis://:$secret@127.0.0.1",
            'read_timeout' => 2000]);
        $got = var_export($l->tryLock(), true);
        echo "$what: $got\n";
    } catch (RLockException $e) {
        $m = str_replace($fake['addr'], 'FAKE', $e->getMessage());
        echo "$what: ", get_class($e), ': ', str_contains($m, $secret) ? 'LEAK' : $m, "\n";
    }
    $fake['stop']();
}
echo "commands the socket heard: ", json_encode($sock['commands']()), "\n";
?>
--EXPECT--
port 0: RLockConnectionException: Redis FAKE: ASK: invalid port
port -1: RLockConnectionException: Redis FAKE: ASK: invalid port
port 65536: RLockConnectionException: Redis FAKE: ASK: invalid port
port 99999999999: RLockConnectionException: Redis FAKE: ASK: invalid port
port abc: RLockConnectionException: Redis FAKE: ASK: invalid port
empty port: RLockConnectionException: Redis FAKE: ASK: invalid port
no port: RLockConnectionException: Redis FAKE: ASK: invalid port
host with a space: RLockConnectionException: Redis FAKE: ASK: invalid host
slot 16384: RLockConnectionException: Redis FAKE: ASK: invalid slot
no slot: RLockConnectionException: Redis FAKE: ASK: invalid slot
socket path, port 0: RLockConnectionException: Redis FAKE: ASK: invalid port
commands the socket heard: []
