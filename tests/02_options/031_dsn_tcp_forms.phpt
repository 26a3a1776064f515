--TEST--
DSN forms redis://host:port, tcp://host:port, a host name, and the default port 6379 all reach the server they name
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = RLOCK_TEST_PORT;
$prefix = 'rlock-test-031:' . getmypid() . ':';
foreach (["redis://127.0.0.1:$p", "tcp://127.0.0.1:$p", "redis://localhost:$p", "redis://127.0.0.1:$p/", "redis://127.0.0.1:$p/0"] as $i => $dsn) {
    $l = new RLock("k$i", ['server' => $dsn, 'prefix' => $prefix]);
    $ok = $l->tryLock() && rlock_test_cmd('GET', $l->key()) === $l->token() && $l->unlock();
    echo str_replace((string) $p, 'PORT', $dsn), ': ', var_export($ok, true), "\n";
}

// no port: 6379; an IPv6 address keeps its brackets in messages
$free = stream_socket_server('tcp://127.0.0.1:0');
$fp = (int) explode(':', stream_socket_get_name($free, false))[1];
fclose($free);
foreach (['redis://127.0.0.1' => '127.0.0.1:6379', "redis://[::1]:$fp" => "[::1]:$fp"] as $dsn => $label) {
    try {
        (new RLock('k', ['server' => $dsn, 'prefix' => $prefix]))->isLocked();
        echo "$label answered\n";   // a local redis on 6379 is fine too
    } catch (RLockConnectionException $e) {
        echo str_starts_with($e->getMessage(), "Redis $label: ") ? "$label refused\n" : $e->getMessage() . "\n";
    }
}
?>
--EXPECTF--
redis://127.0.0.1:PORT: true
tcp://127.0.0.1:PORT: true
redis://localhost:PORT: true
redis://127.0.0.1:PORT/: true
redis://127.0.0.1:PORT/0: true
127.0.0.1:6379 %s
[::1]:%d refused
