--TEST--
Redis goes away: RLockConnectionException; once it is back the next call works on a new connection
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
$slow = rlock_test_slow();
$s = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) explode(':', stream_socket_get_name($s, false))[1];
fclose($s);
$dir = sys_get_temp_dir() . '/rlock-phpt-029-' . getmypid();
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
$l = new RLock('k', ['server' => "redis://127.0.0.1:$port", 'ttl' => 60000]);
var_dump($l->tryLock(), $l->unlock());

redis_stop($dir);
foreach (['isLocked', 'tryLock'] as $m) {
    $t = microtime(true);
    try {
        $l->$m();
        echo "$m: no exception\n";
    } catch (RLockConnectionException $e) {
        echo "$m: ", var_export(str_starts_with($e->getMessage(), "Redis 127.0.0.1:$port: "), true), ', ',
            var_export((microtime(true) - $t) * 1000 < 2000 * $slow, true), "\n";
    }
}
try {
    $l->tryLock();
} catch (RLockConnectionException $e) {
    echo str_replace((string) $port, 'PORT', $e->getMessage()), "\n";
}

redis_start($port, $dir);
echo "back: "; var_dump($l->tryLock());
var_dump($l->isLocked(), $l->unlock(), $l->isLocked());
?>
--CLEAN--
<?php
require_once __DIR__ . '/../config.inc';
// a test process that died (a crash, a timeout) could not stop its redis-server: do it here
foreach (glob(sys_get_temp_dir() . '/rlock-phpt-029-*') ?: [] as $dir) {
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
bool(true)
bool(true)
isLocked: true, true
tryLock: true, true
Redis 127.0.0.1:PORT: cannot connect: Connection refused
back: bool(true)
bool(true)
bool(true)
bool(false)
