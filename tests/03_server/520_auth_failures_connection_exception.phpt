--TEST--
Every authentication failure is an RLockConnectionException naming host and port, never the password: no password to a server that wants one (NOAUTH on the first command, whatever the call), a wrong password (WRONGPASS), an unknown or disabled ACL user; an ACL's refusal of a command (NOPERM) stays an RLockException
--EXTENSIONS--
rlock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
exec('command -v ' . (getenv('RLOCK_TEST_SERVER') ?: 'redis-server'), $out, $rc);
if ($rc !== 0) die('skip redis-server not installed');
?>
--INI--
zend.exception_ignore_args=0
--FILE--
<?php
require_once __DIR__ . '/../config.inc';
$srv = rlock_test_own_server('--requirepass Default-Secret-1'
    . ' --user alice on ' . implode(' ', array_map('escapeshellarg', ['>Alice-Secret-2', '~*', '&*', '+@all']))
    . ' --user carol off ' . implode(' ', array_map('escapeshellarg', ['>Carol-Secret-3', '~*', '&*', '+@all']))
    . ' --user dave on ' . implode(' ', array_map('escapeshellarg', ['>Dave-Secret-4', '~other:*', '+@all'])));
$port = $srv['port'];
$secrets = ['Default-Secret-1', 'Alice-Secret-2', 'Carol-Secret-3', 'Dave-Secret-4', 'Wrong-Secret-5'];

function show(string $what, callable $fn, int $port, array $secrets): void
{
    echo "$what: ";
    try {
        $fn();
        echo "no exception\n";
    } catch (Throwable $e) {
        $all = $e->getMessage() . "\n" . $e->getTraceAsString();
        foreach ($secrets as $s) {
            if (str_contains($all, $s)) {
                echo "LEAK of $s: ";
            }
        }
        echo get_class($e), ': ', str_replace("127.0.0.1:$port", 'HOST:PORT', $e->getMessage()), "\n";
    }
}

$none = "redis://127.0.0.1:$port";
$o = ['server' => $none, 'prefix' => 'rlock-test-520:', 'persistent' => false];
echo "-- no password: NOAUTH on the first command, whatever it is\n";
show('RLock::tryLock', fn () => (new RLock('k', $o))->tryLock(), $port, $secrets);
$t = microtime(true);
show('RLock::lock(wait)', fn () => (new RLock('k', $o))->lock(30000), $port, $secrets);
// waiting out a refusal helps nothing: it ends the wait (a generous bound: not the 30 s)
echo microtime(true) - $t < 10 ? "at once\n" : "waited\n";
show('RLock::isLocked', fn () => (new RLock('k', $o))->isLocked(), $port, $secrets);
show('RLock::ttl', fn () => (new RLock('k', $o))->ttl(), $port, $secrets);
show('RLock::release', fn () => RLock::release('k', str_repeat('a', 32), $o), $port, $secrets);
show('RLock::multi', fn () => RLock::multi(['a', 'b'], $o)->tryLock(), $port, $secrets);
show('RSemaphore', fn () => (new RSemaphore('s', 2, $o))->tryAcquire(), $port, $secrets);
show('RReadWriteLock', fn () => (new RReadWriteLock('rw', $o))->readLock()->tryLock(), $port, $secrets);
show('a database', fn () => (new RLock('k', ['server' => "$none/3"] + $o))->tryLock(), $port, $secrets);
show('persistent', fn () => (new RLock('k', ['persistent' => true] + $o))->tryLock(), $port, $secrets);
show('Redlock', fn () => (new RLock('k', ['servers' => [$none], 'prefix' => 'rlock-test-520:']))->tryLock(),
    $port, $secrets);

echo "-- refused credentials\n";
$bad = [
    'wrong password' => "redis://:Wrong-Secret-5@127.0.0.1:$port",
    'wrong password of a user' => "redis://alice:Wrong-Secret-5@127.0.0.1:$port",
    'unknown ACL user' => "redis://mallory:Alice-Secret-2@127.0.0.1:$port",
    'disabled ACL user' => "redis://carol:Carol-Secret-3@127.0.0.1:$port",
];
foreach ($bad as $what => $dsn) {
    show($what, fn () => (new RLock('k', ['server' => $dsn] + $o))->tryLock(), $port, $secrets);
}

echo "-- authenticated\n";
show('the right password', fn () => var_dump((new RLock('k', ['server' => "redis://:Default-Secret-1@127.0.0.1:$port"] + $o))->tryLock()),
    $port, $secrets);
// authenticated, but the user's ACL refuses the keys: a refusal of the command, not of the credentials
show('NOPERM', fn () => (new RLock('k', ['server' => "redis://dave:Dave-Secret-4@127.0.0.1:$port"] + $o))->tryLock(), $port, $secrets);
?>
--EXPECTF--
-- no password: NOAUTH on the first command, whatever it is
RLock::tryLock: RLockConnectionException: Redis HOST:PORT: authentication failed: the server wants a password, and the DSN gives none (redis://user:password@host)
RLock::lock(wait): RLockConnectionException: Redis HOST:PORT: authentication failed: the server wants a password, and the DSN gives none (redis://user:password@host)
at once
RLock::isLocked: RLockConnectionException: Redis HOST:PORT: authentication failed: the server wants a password, and the DSN gives none (redis://user:password@host)
RLock::ttl: RLockConnectionException: Redis HOST:PORT: authentication failed: the server wants a password, and the DSN gives none (redis://user:password@host)
RLock::release: RLockConnectionException: Redis HOST:PORT: authentication failed: the server wants a password, and the DSN gives none (redis://user:password@host)
RLock::multi: RLockConnectionException: Redis HOST:PORT: authentication failed: the server wants a password, and the DSN gives none (redis://user:password@host)
RSemaphore: RLockConnectionException: Redis HOST:PORT: authentication failed: the server wants a password, and the DSN gives none (redis://user:password@host)
RReadWriteLock: RLockConnectionException: Redis HOST:PORT: authentication failed: the server wants a password, and the DSN gives none (redis://user:password@host)
a database: RLockConnectionException: Redis HOST:PORT: authentication failed: the server wants a password, and the DSN gives none (redis://user:password@host)
persistent: RLockConnectionException: Redis HOST:PORT: authentication failed: the server wants a password, and the DSN gives none (redis://user:password@host)
Redlock: RLockConnectionException: Redis quorum: 1 of 1 masters failed, first Redis HOST:PORT: authentication failed: the server wants a password, and the DSN gives none (redis://user:password@host)
-- refused credentials
wrong password: RLockConnectionException: Redis HOST:PORT: authentication failed: WRONGPASS (wrong user name or password, or the user is disabled)
wrong password of a user: RLockConnectionException: Redis HOST:PORT: authentication failed: WRONGPASS (wrong user name or password, or the user is disabled)
unknown ACL user: RLockConnectionException: Redis HOST:PORT: authentication failed: WRONGPASS (wrong user name or password, or the user is disabled)
disabled ACL user: RLockConnectionException: Redis HOST:PORT: authentication failed: WRONGPASS (wrong user name or password, or the user is disabled)
-- authenticated
the right password: bool(true)
no exception
NOPERM: RLockException: Redis HOST:PORT: NOPERM %s
