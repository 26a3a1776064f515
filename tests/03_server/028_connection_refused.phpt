--TEST--
Nothing listening: every call that needs Redis throws RLockConnectionException naming host, port and cause, at once
--EXTENSIONS--
rlock
--FILE--
<?php
$slow = getenv('USE_ZEND_ALLOC') === '0' ? 10 : 1;
$s = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) explode(':', stream_socket_get_name($s, false))[1];
fclose($s);  // a port nothing listens on

$l = new RLock('k', ['server' => "redis://127.0.0.1:$port", 'connect_timeout' => 1000]);
$calls = [
    'tryLock' => fn() => $l->tryLock(),
    'lock' => fn() => $l->lock(2000),
    'synchronized' => fn() => $l->synchronized(fn() => 1),
    'isLocked' => fn() => $l->isLocked(),
    'ttl' => fn() => $l->ttl(),
    'release' => fn() => RLock::release('k', str_repeat('a', 32), ['server' => "tcp://127.0.0.1:$port"]),
];
foreach ($calls as $name => $call) {
    $t = microtime(true);
    try {
        $call();
        echo "$name: no exception\n";
    } catch (RLockConnectionException $e) {
        $ms = (microtime(true) - $t) * 1000;
        echo "$name: ", get_class($e), ' ', var_export($e instanceof RLockException && $e instanceof RuntimeException, true), ' ',
            str_replace((string) $port, 'PORT', $e->getMessage()), ' ', var_export($ms < 1000 * $slow, true), "\n";
    }
}
// what needs no round trip does not throw
var_dump($l->unlock(), $l->isAcquired(), $l->token(), $l->extend());
?>
--EXPECT--
tryLock: RLockConnectionException true Redis 127.0.0.1:PORT: cannot connect: Connection refused true
lock: RLockConnectionException true Redis 127.0.0.1:PORT: cannot connect: Connection refused true
synchronized: RLockConnectionException true Redis 127.0.0.1:PORT: cannot connect: Connection refused true
isLocked: RLockConnectionException true Redis 127.0.0.1:PORT: cannot connect: Connection refused true
ttl: RLockConnectionException true Redis 127.0.0.1:PORT: cannot connect: Connection refused true
release: RLockConnectionException true Redis 127.0.0.1:PORT: cannot connect: Connection refused true
bool(false)
bool(false)
NULL
bool(false)
