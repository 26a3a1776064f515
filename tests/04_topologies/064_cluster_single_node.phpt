--TEST--
A one-node Redis Cluster, whose CLUSTER SLOTS names its master with an empty endpoint: rlock uses the address it asked
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require_once __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
// two free ports, the server's and its cluster bus' (the default, port + 10000, may be taken,
// or past 65535 for a port above 55535, when redis-server refuses to start)
$s = stream_socket_server('tcp://127.0.0.1:0');
$b = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) explode(':', stream_socket_get_name($s, false))[1];
$bus = (int) explode(':', stream_socket_get_name($b, false))[1];
fclose($s);
fclose($b);
$dir = sys_get_temp_dir() . '/rlock-phpt-064-' . getmypid();
@mkdir($dir);
exec((getenv('RLOCK_TEST_SERVER') ?: 'redis-server') . ' --port ' . $port . ' --bind 127.0.0.1 --save "" --appendonly no --daemonize yes'
    . ' --cluster-enabled yes --cluster-port ' . $bus . ' --cluster-config-file ' . escapeshellarg("$dir/nodes.conf")
    . ' --dir ' . escapeshellarg($dir) . ' --pidfile ' . escapeshellarg("$dir/redis.pid"));
register_shutdown_function(function () use ($dir) {
    $pid = (int) @file_get_contents("$dir/redis.pid");
    if ($pid > 0) {
        exec("kill $pid");
        while (rlock_test_alive($pid)) {
            usleep(10000);
        }
    }
    array_map('unlink', glob("$dir/*"));
    @rmdir($dir);
});
function cmd(int $port, string ...$args): string {
    $c = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 0.5);
    if (!$c) {
        return '';
    }
    $out = '*' . count($args) . "\r\n";
    foreach ($args as $a) {
        $out .= '$' . strlen($a) . "\r\n$a\r\n";
    }
    fwrite($c, $out);
    stream_set_timeout($c, 2);
    $line = (string) fgets($c);
    if ($line !== '' && $line[0] === '$' && (int) substr($line, 1) > 0) {
        $line = stream_get_contents($c, (int) substr($line, 1) + 2);
    }
    return $line;
}
$deadline = microtime(true) + 10 * $slow;
while (!str_starts_with(cmd($port, 'PING'), '+PONG') && microtime(true) < $deadline) {
    usleep(10000);
}
echo cmd($port, 'CLUSTER', 'ADDSLOTSRANGE', '0', '16383');
while (!str_contains(cmd($port, 'CLUSTER', 'INFO'), 'cluster_state:ok') && microtime(true) < $deadline) {
    usleep(20000);
}
$o = ['cluster' => ["127.0.0.1:$port"], 'ttl' => 5000];
$l = new RLock('single', $o);
var_dump($l->lock(1000), $l->isAcquired(), $l->ttl() > 0);
$f = new RLock('{single}fenced', $o + ['fencing' => true]);
var_dump($f->tryLock(), $f->fencingToken() >= 1, $f->unlock());
var_dump($l->unlock(), $l->isLocked());
?>
--EXPECT--
+OK
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
