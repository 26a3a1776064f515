--TEST--
A Sentinel naming the master with port 0, -1, 65536, 99999999999, "abc" or an empty port, or an invalid host: refused, and port 0 is never taken for a unix socket (no AUTH goes there)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../fake_redis.inc';
$secret = 'Sup3r-Secret-Pw';
// a socket where port 0 would make it a unix socket path: it must hear nothing
$sock = rlock_fake_redis(['AUTH' => "+OK\r\n", 'SET' => "+OK\r\n"],
    'unix://' . sys_get_temp_dir() . '/rlock-phpt-075-' . getmypid() . '.sock');
$masters = [
    'port 0' => ['127.0.0.1', '0'],
    'port -1' => ['127.0.0.1', '-1'],
    'port 65536' => ['127.0.0.1', '65536'],
    'port 99999999999' => ['127.0.0.1', '99999999999'],
    'port abc' => ['127.0.0.1', 'abc'],
    'port 6379abc' => ['127.0.0.1', '6379abc'],
    'empty port' => ['127.0.0.1', ''],
    'empty host' => ['', '6379'],
    'host with a NUL byte' => ["127.0.0.1\0evil", '6379'],
    'socket path, port 0' => [$sock['host'], '0'],
];
foreach ($masters as $what => $master) {
    $fake = rlock_fake_redis(['SENTINEL' => rlock_resp($master)]);
    try {
        $l = new RLock('k', ['sentinel' => [$fake['addr']], 'service' => 'mymaster',
            'server' => "redis://:$secret@127.0.0.1", 'read_timeout' => 2000]);
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
port 0: RLockConnectionException: Redis FAKE: SENTINEL get-master-addr-by-name: invalid port
port -1: RLockConnectionException: Redis FAKE: SENTINEL get-master-addr-by-name: invalid port
port 65536: RLockConnectionException: Redis FAKE: SENTINEL get-master-addr-by-name: invalid port
port 99999999999: RLockConnectionException: Redis FAKE: SENTINEL get-master-addr-by-name: invalid port
port abc: RLockConnectionException: Redis FAKE: SENTINEL get-master-addr-by-name: invalid port
port 6379abc: RLockConnectionException: Redis FAKE: SENTINEL get-master-addr-by-name: invalid port
empty port: RLockConnectionException: Redis FAKE: SENTINEL get-master-addr-by-name: invalid port
empty host: RLockConnectionException: Redis FAKE: SENTINEL get-master-addr-by-name: invalid host
host with a NUL byte: RLockConnectionException: Redis FAKE: SENTINEL get-master-addr-by-name: invalid host
socket path, port 0: RLockConnectionException: Redis FAKE: SENTINEL get-master-addr-by-name: invalid port
commands the socket heard: []
