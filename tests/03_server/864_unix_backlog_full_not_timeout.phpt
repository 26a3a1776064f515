--TEST--
A Unix socket whose server's queue of connections to accept is full: Linux refuses the connect at once with EAGAIN, and rlock says so ("cannot connect: Resource temporarily unavailable", the queue named), not "read timed out" (what EAGAIN meant when reads had a socket timeout; no read was ever made)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (PHP_OS_FAMILY !== 'Linux') die('skip Linux: EAGAIN from a Unix socket connect'); ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$path = sys_get_temp_dir() . '/rlock-phpt-864-' . getmypid() . '.sock';
@unlink($path);
register_shutdown_function(fn () => @unlink($path));
// a listener that never accepts, its queue (backlog 1) filled: the next connect is refused
$server = stream_socket_server("unix://$path", $errno, $errstr, STREAM_SERVER_BIND | STREAM_SERVER_LISTEN,
    stream_context_create(['socket' => ['backlog' => 1]]));
$queued = [];
while (count($queued) < 64 && ($c = @stream_socket_client("unix://$path", $errno, $errstr, 1,
        STREAM_CLIENT_CONNECT | STREAM_CLIENT_ASYNC_CONNECT))) {
    $queued[] = $c;
}
echo "queue full: ", var_export(count($queued) < 64, true), "\n";
$l = new RLock('k', ['server' => "unix://$path", 'persistent' => false]);
try {
    $l->tryLock();
    echo "no exception\n";
} catch (RLockConnectionException $e) {
    echo get_class($e), ': ', str_replace($path, 'PATH', $e->getMessage()), "\n";
}
?>
--EXPECT--
queue full: true
RLockConnectionException: Redis unix:PATH: cannot connect: Resource temporarily unavailable (the server's queue of connections to accept is full)
