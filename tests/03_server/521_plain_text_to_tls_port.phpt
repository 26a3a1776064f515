--TEST--
A redis:// DSN pointed at a TLS-only port: an RLockConnectionException naming host and port that says the server may want rediss:// (with or without a password in the DSN; a lock, a semaphore, Redlock)
--EXTENSIONS--
rlock
openssl
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
// redis-server built with TLS (Debian's is): it knows --tls-port
$out = shell_exec((getenv('RLOCK_TEST_SERVER') ?: 'redis-server') . ' --port 0 --tls-port 1 --daemonize no --tls-cert-file /nonexistent 2>&1');
if ($out === null || str_contains($out, 'Bad directive')) die('skip redis-server without TLS');
?>
--FILE--
<?php
require __DIR__ . '/../tls/tls.inc';
$r = rlock_tls_server();
$port = $r['tls_port'];
$dsn = "redis://127.0.0.1:$port";

function show(string $what, callable $fn, int $port): void
{
    echo "$what: ";
    try {
        $fn();
        echo "no exception\n";
    } catch (RLockException $e) {
        echo get_class($e), ': ', str_replace("127.0.0.1:$port", 'HOST:PORT', $e->getMessage()), "\n";
    }
}

// the server closes the connection (Redis 7.0), or answers with a TLS alert (tests/522)
$o = ['server' => $dsn, 'prefix' => 'rlock-test-521:'];
show('RLock', fn () => (new RLock('k', $o))->tryLock(), $port);
show('RLock, waiting', fn () => (new RLock('k', $o))->lock(100), $port);
show('with a password', fn () => (new RLock('k', ['server' => "redis://:pw@127.0.0.1:$port"] + $o))->tryLock(), $port);
show('RSemaphore', fn () => (new RSemaphore('s', 2, $o))->tryAcquire(), $port);
show('Redlock', fn () => (new RLock('k', ['servers' => [$dsn], 'prefix' => 'rlock-test-521:']))->tryLock(), $port);

// the plain port of the same server works
var_dump((new RLock('k', ['server' => $r['dsn']] + $o))->tryLock());
?>
--EXPECTF--
RLock: RLockConnectionException: Redis HOST:PORT: server %s: it may want TLS (rediss://)
RLock, waiting: RLockConnectionException: Redis HOST:PORT: server %s: it may want TLS (rediss://)
with a password: RLockConnectionException: Redis HOST:PORT: server %s: it may want TLS (rediss://)
RSemaphore: RLockConnectionException: Redis HOST:PORT: server %s: it may want TLS (rediss://)
Redlock: RLockConnectionException: Redis quorum: 1 of 1 masters failed, first Redis HOST:PORT: server %s: it may want TLS (rediss://)
bool(true)
