--TEST--
TLS: plain text to a TLS port, and TLS to a plain port, fail within the timeouts (RLockConnectionException naming host and port)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/tls.inc';
$r = rlock_tls_server();
$cases = ["redis://127.0.0.1:{$r['tls_port']}" => $r['tls_port'], "rediss://127.0.0.1:{$r['port']}" => $r['port']];
foreach ($cases as $dsn => $port) {
    $t = microtime(true);
    try {
        (new RLock('tls-p', ['server' => $dsn, 'tls_ca' => $r['ca'], 'connect_timeout' => 300, 'read_timeout' => 300]))->tryLock();
        echo "connected\n";
    } catch (RLockConnectionException $e) {
        echo str_replace((string) $port, 'PORT', explode(':', $e->getMessage(), 3)[0] . ':' . explode(':', $e->getMessage(), 3)[1]), "\n";
    }
    // a generous bound: the call's own deadline is connect_timeout + read_timeout
    echo microtime(true) - $t < (0.6 + 0.5) * RLOCK_TLS_SLOW ? "within the timeouts\n" : "too late\n";
}
?>
--EXPECT--
Redis 127.0.0.1:PORT
within the timeouts
Redis 127.0.0.1:PORT
within the timeouts
