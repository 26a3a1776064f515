--TEST--
A connect that gets no answer fails with RLockConnectionException within connect_timeout
--EXTENSIONS--
rlock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
if (PHP_OS_FAMILY !== 'Linux') die('skip needs Linux listen backlog semantics');
?>
--INI--
rlock.connect_timeout=300
--FILE--
<?php
$slow = getenv('USE_ZEND_ALLOC') === '0' ? 10 : 1;
// a listener with a full accept queue: Linux drops further SYNs, so a connect hangs
$srv = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr, STREAM_SERVER_BIND | STREAM_SERVER_LISTEN,
    stream_context_create(['socket' => ['backlog' => 0]]));
$port = (int) explode(':', stream_socket_get_name($srv, false))[1];
$fill = [];
for ($i = 0; $i < 4; $i++) {
    $fill[] = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 0.2,
        STREAM_CLIENT_CONNECT | STREAM_CLIENT_ASYNC_CONNECT);
}

foreach ([['connect_timeout' => 200], []] as $opt) {
    $l = new RLock('k', ['server' => "redis://127.0.0.1:$port", 'read_timeout' => 5000] + $opt);
    $limit = $opt['connect_timeout'] ?? 300;
    $t = microtime(true);
    try {
        $l->lock(3000);
        echo "no exception\n";
    } catch (RLockConnectionException $e) {
        $ms = (microtime(true) - $t) * 1000;
        echo str_replace((string) $port, 'PORT', $e->getMessage()), "\n";
        echo "bounded by connect_timeout: ", var_export($ms >= $limit - 50 && $ms < $limit + 1000 * $slow, true), "\n";
    }
}
?>
--EXPECT--
Redis 127.0.0.1:PORT: cannot connect: Connection timed out
bounded by connect_timeout: true
Redis 127.0.0.1:PORT: cannot connect: Connection timed out
bounded by connect_timeout: true
