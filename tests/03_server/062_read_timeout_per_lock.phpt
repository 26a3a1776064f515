--TEST--
Two RLocks on one pooled connection keep their own read_timeout: a hung server fails the short one within its own timeout
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
['port' => $port, 'pid' => $pid, 'dsn' => $dsn] = rlock_test_own_server();

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
