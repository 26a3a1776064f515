--TEST--
TLS: a server whose certificate the CA did not sign, or that names another host, is refused (RLockConnectionException naming host and port); tls_verify_peer=false takes it
--EXTENSIONS--
rlock
--INI--
rlock.connect_timeout=5000
rlock.read_timeout=5000
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/tls.inc';
$r = rlock_tls_server();
foreach ([['tls_ca' => $r['other_ca']], ['tls_ca' => $r['ca'], 'tls_server_name' => 'other.example']] as $tls) {
    try {
        (new RLock('tls-x', ['server' => $r['tls_dsn'], 'persistent' => false] + $tls))->tryLock();
        echo "connected\n";
    } catch (RLockConnectionException $e) {
        echo str_replace((string) $r['tls_port'], 'PORT', $e->getMessage()), "\n";
    }
}
$l = new RLock('tls-x', ['server' => $r['tls_dsn'], 'tls_ca' => $r['other_ca'], 'tls_verify_peer' => false]);
var_dump($l->tryLock(), $l->unlock());
?>
--EXPECTF--
Redis 127.0.0.1:PORT: TLS handshake failed: certificate verify failed (%s)
Redis 127.0.0.1:PORT: TLS handshake failed: certificate verify failed (hostname mismatch)
bool(true)
bool(true)
