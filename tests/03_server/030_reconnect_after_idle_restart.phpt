--TEST--
Redis restarted between two calls: the first call after the restart reconnects and works
--EXTENSIONS--
rlock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
exec('command -v redis-server', $out, $rc);
if ($rc !== 0) die('skip redis-server not installed');
?>
--FILE--
<?php
require_once __DIR__ . '/../config.inc';
$s = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) explode(':', stream_socket_get_name($s, false))[1];
fclose($s);
$dir = sys_get_temp_dir() . '/rlock-phpt-030-' . getmypid();
@mkdir($dir);

function redis_start(int $port, string $dir): void {
    exec((getenv('RLOCK_TEST_SERVER') ?: 'redis-server') . ' --port ' . $port . ' --bind 127.0.0.1 --save "" --appendonly no --daemonize yes'
        . ' --dir ' . escapeshellarg($dir) . ' --pidfile ' . escapeshellarg("$dir/redis.pid")
        . ' --logfile ' . escapeshellarg("$dir/redis.log"));
    $deadline = microtime(true) + 10;
    while (microtime(true) < $deadline) {
        $c = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 0.2);
        if ($c && fwrite($c, "PING\r\n") && str_starts_with((string) fgets($c), '+PONG')) {
            return;
        }
        usleep(10000);
    }
    die("redis-server did not start\n");
}
function redis_stop(string $dir): void {
    $pid = (int) @file_get_contents("$dir/redis.pid");
    if ($pid > 0) {
        exec("kill $pid");
        $deadline = microtime(true) + 10;
        while (rlock_test_alive($pid) && microtime(true) < $deadline) {
            usleep(10000);
        }
    }
}
register_shutdown_function(function () use ($dir) {
    redis_stop($dir);
    array_map('unlink', glob("$dir/*"));
    @rmdir($dir);
});

redis_start($port, $dir);
foreach ([true, false] as $persistent) {
    echo $persistent ? "persistent:\n" : "per request:\n";
    $l = new RLock('k', ['server' => "redis://127.0.0.1:$port", 'persistent' => $persistent]);
    var_dump($l->tryLock(), $l->unlock());
    // the connection rlock keeps is now dead, closed by the old server
    redis_stop($dir);
    redis_start($port, $dir);
    try {
        var_dump($l->isLocked());
        var_dump($l->tryLock(), $l->unlock());
    } catch (RLockConnectionException $e) {
        echo get_class($e), ': ', str_replace((string) $port, 'PORT', $e->getMessage()), "\n";
    }
}
?>
--CLEAN--
<?php
require_once __DIR__ . '/../config.inc';
// a test process that died (a crash, a timeout) could not stop its redis-server: do it here
foreach (glob(sys_get_temp_dir() . '/rlock-phpt-030-*') ?: [] as $dir) {
    $owner = (int) substr($dir, strrpos($dir, '-') + 1);
    if ($owner <= 0 || rlock_test_alive($owner)) {
        continue;
    }
    $pid = (int) @file_get_contents("$dir/redis.pid");
    if ($pid > 0 && rlock_test_alive($pid)) {
        exec("kill $pid");
        $deadline = microtime(true) + 10;
        while (rlock_test_alive($pid) && microtime(true) < $deadline) {
            usleep(10000);
        }
    }
    array_map('unlink', glob("$dir/*") ?: []);
    @rmdir($dir);
}
?>
--EXPECT--
persistent:
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
per request:
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
