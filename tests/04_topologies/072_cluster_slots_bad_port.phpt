--TEST--
CLUSTER SLOTS naming a node with port 0, -1, 65536 or 99999999999: refused, and port 0 is never taken for a unix socket (no AUTH goes there)
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
    'unix://' . sys_get_temp_dir() . '/rlock-phpt-072-' . getmypid() . '.sock');
$nodes = [
    'port 0' => ['127.0.0.1', 0],
    'port -1' => ['127.0.0.1', -1],
    'port 65536' => ['127.0.0.1', 65536],
    'port 99999999999' => ['127.0.0.1', 99999999999],
    'socket path, port 0' => [$sock['host'], 0],
];
foreach ($nodes as $what => $node) {
    $fake = rlock_fake_redis(['CLUSTER' => rlock_resp([[0, 16383, $node]]), 'SET' => "+OK\r\n", 'EVALSHA' => ":1\r\n"]);
    try {
        $l = new RLock('k', ['cluster' => [$fake['addr']], 'server' => "redis://:$secret@127.0.0.1", 'read_timeout' => 2000]);
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
port 0: RLockConnectionException: Redis FAKE: CLUSTER SLOTS: entry 0: invalid port
port -1: RLockConnectionException: Redis FAKE: CLUSTER SLOTS: entry 0: invalid port
port 65536: RLockConnectionException: Redis FAKE: CLUSTER SLOTS: entry 0: invalid port
port 99999999999: RLockConnectionException: Redis FAKE: CLUSTER SLOTS: entry 0: invalid port
socket path, port 0: RLockConnectionException: Redis FAKE: CLUSTER SLOTS: entry 0: invalid port
commands the socket heard: []
