--TEST--
unix:///path.sock reaches a redis-server on a unix socket; a missing socket names its path
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
require __DIR__ . '/../config.inc';
$dir = sys_get_temp_dir() . '/rlock-phpt-032-' . getmypid();
@mkdir($dir);
$sock = "$dir/redis.sock";
exec((getenv('RLOCK_TEST_SERVER') ?: 'redis-server') . ' --port 0 --unixsocket ' . escapeshellarg($sock) . ' --unixsocketperm 700 --save "" --appendonly no'
    . ' --daemonize yes --dir ' . escapeshellarg($dir) . ' --pidfile ' . escapeshellarg("$dir/redis.pid")
    . ' --logfile ' . escapeshellarg("$dir/redis.log"));
register_shutdown_function(function () use ($dir) {
    $pid = (int) @file_get_contents("$dir/redis.pid");
    if ($pid > 0) {
        exec("kill $pid");
        $deadline = microtime(true) + 10;
        while (rlock_test_alive($pid) && microtime(true) < $deadline) {
            usleep(10000);
        }
    }
    array_map('unlink', glob("$dir/*"));
    @rmdir($dir);
});
$deadline = microtime(true) + 10;
while (!@stream_socket_client("unix://$sock") && microtime(true) < $deadline) {
    usleep(10000);
}

$l = new RLock('k', ['server' => "unix://$sock", 'prefix' => 'rlock-test-032:']);
var_dump($l->tryLock());
var_dump(strlen($l->token()));
// the key lives on the unix-socket server, not on the TCP one
$peer = new RLock('k', ['server' => "unix://$sock", 'prefix' => 'rlock-test-032:', 'reentrant' => false]);
var_dump($peer->isLocked(), $peer->tryLock());
var_dump(rlock_test_cmd('EXISTS', 'rlock-test-032:k'));
var_dump($l->ttl() > 0, $l->unlock(), $peer->isLocked());

try {
    (new RLock('k', ['server' => "unix://$dir/missing.sock"]))->tryLock();
} catch (RLockConnectionException $e) {
    echo str_replace($dir, 'DIR', $e->getMessage()), "\n";
}
?>
--CLEAN--
<?php
require_once __DIR__ . '/../config.inc';
// a test process that died (a crash, a timeout) could not stop its redis-server: do it here
foreach (glob(sys_get_temp_dir() . '/rlock-phpt-032-*') ?: [] as $dir) {
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
int(32)
bool(true)
bool(false)
int(0)
bool(true)
bool(true)
bool(false)
Redis unix:DIR/missing.sock: cannot connect: No such file or directory
