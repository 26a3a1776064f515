--TEST--
A server that accepts but never answers: RLockConnectionException "read timed out" within read_timeout (option or php.ini)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
rlock.read_timeout=400
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
// the kernel completes the connect; nobody ever reads or writes
$mute = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) explode(':', stream_socket_get_name($mute, false))[1];
$dsn = "redis://127.0.0.1:$port";

foreach ([['read_timeout' => 250], []] as $opt) {
    $l = new RLock('k', ['server' => $dsn] + $opt);
    $t = microtime(true);
    try {
        $l->tryLock();
        echo "no exception\n";
    } catch (RLockConnectionException $e) {
        $ms = (microtime(true) - $t) * 1000;
        $limit = $opt['read_timeout'] ?? 400;
        echo get_class($e), ': ', str_replace((string) $port, 'PORT', $e->getMessage()), "\n";
        echo "after read_timeout: ", var_export($ms >= $limit - 50, true), ", bounded: ", var_export($ms < $limit + 1500 * $slow, true), "\n";
    }
}

// queries time out the same way, then a good server works at once
$l = new RLock('k', ['server' => $dsn, 'read_timeout' => 200]);
try {
    $l->isLocked();
} catch (RLockConnectionException $e) {
    echo "isLocked: ", str_replace((string) $port, 'PORT', $e->getMessage()), "\n";
}
$good = new RLock('k', rlock_test_options(['read_timeout' => 200]));
var_dump($good->tryLock(), $good->unlock());
?>
--EXPECT--
RLockConnectionException: Redis 127.0.0.1:PORT: read timed out
after read_timeout: true, bounded: true
RLockConnectionException: Redis 127.0.0.1:PORT: read timed out
after read_timeout: true, bounded: true
isLocked: Redis 127.0.0.1:PORT: read timed out
bool(true)
bool(true)
