--TEST--
Two RLocks on one pooled connection keep their own read_timeout: a hung server fails the short one within its own timeout
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
$slow = getenv('USE_ZEND_ALLOC') === '0' ? 10 : 1;
$s = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) explode(':', stream_socket_get_name($s, false))[1];
fclose($s);
$dir = sys_get_temp_dir() . '/rlock-phpt-062-' . getmypid();
@mkdir($dir);
exec('redis-server --port ' . $port . ' --bind 127.0.0.1 --save "" --appendonly no --daemonize yes'
    . ' --dir ' . escapeshellarg($dir) . ' --pidfile ' . escapeshellarg("$dir/redis.pid"));
$deadline = microtime(true) + 10;
while (!($c = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 0.2)) && microtime(true) < $deadline) {
    usleep(10000);
}
while (!is_file("$dir/redis.pid") && microtime(true) < $deadline) {
    usleep(10000);
}
$pid = (int) file_get_contents("$dir/redis.pid");
register_shutdown_function(function () use ($pid, $dir) {
    exec("kill -CONT $pid; kill $pid");
    while (file_exists("/proc/$pid")) {
        usleep(10000);
    }
    array_map('unlink', glob("$dir/*"));
    @rmdir($dir);
});

$dsn = "redis://127.0.0.1:$port";
$long = new RLock('k', ['server' => $dsn, 'read_timeout' => 5000]);
var_dump($long->tryLock(), $long->unlock());   // the pooled connection now waits 5 s
exec("kill -STOP $pid");
$short = new RLock('k', ['server' => $dsn, 'read_timeout' => 200]);
$t = microtime(true);
try {
    $short->tryLock();
    echo "no exception\n";
} catch (RLockConnectionException $e) {
    $ms = (microtime(true) - $t) * 1000;
    echo str_replace((string) $port, 'PORT', $e->getMessage()), "\n";
    echo "within its own read_timeout: ", var_export($ms >= 150 && $ms < 1500 * $slow, true), "\n";
}
?>
--EXPECT--
bool(true)
bool(true)
Redis 127.0.0.1:PORT: read timed out
within its own read_timeout: true
