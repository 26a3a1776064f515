--TEST--
A redis:// DSN pointed at a TLS server that answers plain text with a TLS alert record (0x15 0x03 ...), as some do (others close: tests/521): an RLockConnectionException that says the server may want rediss://; a server that answers with other bytes that are no reply (HTTP) is not taken for TLS
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../fake_redis.inc';
// a fatal "protocol_version" alert (TLS 1.2 record), as OpenSSL sends it on a record it cannot read
$tls = rlock_fake_redis(fn () => "\x15\x03\x03\x00\x02\x02\x46");
$http = rlock_fake_redis(fn () => "HTTP/1.1 400 Bad Request\r\n\r\n");
foreach (['TLS alert' => $tls, 'HTTP' => $http] as $what => $fake) {
    echo "$what: ";
    try {
        (new RLock('k', ['server' => $fake['dsn'], 'read_timeout' => 2000]))->tryLock();
        echo "no exception\n";
    } catch (RLockException $e) {
        echo get_class($e), ': ', str_replace($fake['addr'], 'HOST:PORT', $e->getMessage()), "\n";
    }
}
?>
--EXPECT--
TLS alert: RLockConnectionException: Redis HOST:PORT: server answered with a TLS record: it may want TLS (rediss://)
HTTP: RLockConnectionException: Redis HOST:PORT: Protocol error, got "H" as reply type byte
