--TEST--
TLS: a server that requires a client certificate refuses a client without one, and takes tls_cert + tls_key
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
$r = rlock_tls_server('--tls-auth-clients yes');
try {
    (new RLock('tls-m', ['server' => $r['tls_dsn'], 'tls_ca' => $r['ca'], 'persistent' => false]))->tryLock();
    echo "connected without a certificate\n";
} catch (RLockConnectionException $e) {
    echo str_replace((string) $r['tls_port'], 'PORT', $e->getMessage()), "\n";
}
$l = new RLock('tls-m', ['server' => $r['tls_dsn'], 'tls_ca' => $r['ca'], 'tls_cert' => $r['client_cert'], 'tls_key' => $r['client_key']]);
var_dump($l->tryLock(), $l->unlock());
try {
    new RLock('tls-m', ['server' => $r['tls_dsn'], 'tls_cert' => $r['client_cert']]);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECTF--
Redis 127.0.0.1:PORT: %s
bool(true)
bool(true)
RLock::__construct(): Argument #2 ($options) option "tls_key" must be given with "tls_cert" (a client certificate and its key)
