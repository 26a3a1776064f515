--TEST--
user:pass in the DSN authenticates (requirepass and ACL users, percent-encoded); a wrong password fails without showing it
--EXTENSIONS--
rlock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
exec('command -v redis-server', $out, $rc);
if ($rc !== 0) die('skip redis-server not installed');
?>
--INI--
pcre.jit=0
zend.exception_ignore_args=0
--FILE--
<?php
require_once __DIR__ . '/../config.inc';
$s = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) explode(':', stream_socket_get_name($s, false))[1];
fclose($s);
$dir = sys_get_temp_dir() . '/rlock-phpt-034-' . getmypid();
@mkdir($dir);
exec((getenv('RLOCK_TEST_SERVER') ?: 'redis-server') . ' --port ' . $port . ' --bind 127.0.0.1 --save "" --appendonly no --daemonize yes'
    . ' --dir ' . escapeshellarg($dir) . ' --pidfile ' . escapeshellarg("$dir/redis.pid")
    . ' --logfile ' . escapeshellarg("$dir/redis.log")
    . ' --requirepass Default-Secret-1'
    // redis-server takes an ACL rule per argument
    . ' --user alice on ' . implode(' ', array_map('escapeshellarg', ['>Alice-Secret-2', '~*', '&*', '+@all']))
    . ' --user bob on ' . implode(' ', array_map('escapeshellarg', ['>p@ss:w/rd%3', '~rlock-test-034:*', '~}?rlock-test-034:*', '+@all']))
    . ' --user carol off ' . implode(' ', array_map('escapeshellarg', ['>Carol-Secret-4', '~*', '+@all'])), $out, $rc);
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
do {
    $c = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 0.2);
    if ($c && fwrite($c, "PING\r\n") && str_contains((string) fgets($c), 'NOAUTH')) {
        break;
    }
    usleep(10000);
} while (microtime(true) < $deadline);

$secrets = ['Default-Secret-1', 'Alice-Secret-2', 'p@ss:w/rd%3', 'p%40ss%3Aw%2Frd%253', 'Carol-Secret-4', 'Wrong-Secret-5'];
function show(Throwable $e, int $port, array $secrets): void {
    $all = $e->getMessage() . "\n" . $e->getTraceAsString() . "\n" . $e;
    foreach ($secrets as $s) {
        if (str_contains($all, $s)) {
            echo "LEAK of $s\n";
        }
    }
    echo get_class($e), ': ', str_replace((string) $port, 'PORT', $e->getMessage()), "\n";
}

$dsns = [
    'default user' => "redis://:Default-Secret-1@127.0.0.1:$port",
    'password only' => "redis://Default-Secret-1@127.0.0.1:$port",
    'ACL user' => "redis://alice:Alice-Secret-2@127.0.0.1:$port/3",
    'percent-encoded' => "redis://bob:p%40ss%3Aw%2Frd%253@127.0.0.1:$port",
];
foreach ($dsns as $what => $dsn) {
    try {
        $l = new RLock('k', ['server' => $dsn, 'prefix' => 'rlock-test-034:', 'persistent' => $what !== 'ACL user']);
        echo "$what: ", var_export($l->tryLock() && $l->isAcquired() && $l->unlock(), true), "\n";
    } catch (Throwable $e) {
        show($e, $port, $secrets);
    }
}

$bad = [
    'wrong password' => "redis://alice:Wrong-Secret-5@127.0.0.1:$port",
    'wrong default password' => "redis://:Wrong-Secret-5@127.0.0.1:$port",
    'disabled user' => "redis://carol:Carol-Secret-4@127.0.0.1:$port",
    'no password' => "redis://127.0.0.1:$port",
];
foreach ($bad as $what => $dsn) {
    echo "$what: ";
    try {
        $l = new RLock('k', ['server' => $dsn, 'prefix' => 'rlock-test-034:']);
        $l->tryLock();
        echo "no exception\n";
    } catch (RLockException $e) {
        show($e, $port, $secrets);
        if (!preg_match('/auth/i', $e->getMessage())) {
            echo "the message does not say authentication is the problem\n";
        }
    }
}
// the ACL still applies after AUTH: bob may not touch keys outside his pattern
try {
    (new RLock('k', ['server' => $dsns['percent-encoded'], 'prefix' => 'elsewhere:']))->tryLock();
} catch (RLockException $e) {
    show($e, $port, $secrets);
}
?>
--CLEAN--
<?php
require_once __DIR__ . '/../config.inc';
// a test process that died (a crash, a timeout) could not stop its redis-server: do it here
foreach (glob(sys_get_temp_dir() . '/rlock-phpt-034-*') ?: [] as $dir) {
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
--EXPECTF--
default user: true
password only: true
ACL user: true
percent-encoded: true
wrong password: RLockConnectionException: Redis 127.0.0.1:PORT: authentication failed: WRONGPASS %s
wrong default password: RLockConnectionException: Redis 127.0.0.1:PORT: authentication failed: WRONGPASS %s
disabled user: RLockConnectionException: Redis 127.0.0.1:PORT: authentication failed: WRONGPASS %s
no password: RLock%SException: Redis 127.0.0.1:PORT: %s
RLockException: Redis 127.0.0.1:PORT: NOPERM %s
