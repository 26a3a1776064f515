--TEST--
A malformed "server" DSN is a ValueError saying what is wrong, never echoing a password
--EXTENSIONS--
rlock
--FILE--
<?php
$dsns = [
    'localhost:6379', 'http://127.0.0.1', 'redis://', 'redis:///0', 'redis://:sekret@', 'redis://h:0', 'redis://h:65536',
    'redis://h:port', 'redis://u:sekret@h:99999', 'redis://h:6379/db', 'redis://h:6379/-1', 'redis://[::1',
    "redis://h\0x:6379", 'unix://relative.sock', 'unix://', 'tcp://', '',
];
foreach ($dsns as $dsn) {
    try {
        new RLock('k', ['server' => $dsn]);
        echo "accepted: $dsn\n";
    } catch (ValueError $e) {
        $m = $e->getMessage();
        echo substr($m, strlen('RLock::__construct(): Argument #2 ($options) ')), str_contains($m, 'sekret') ? ' LEAK' : '', "\n";
    }
}
// the good forms
foreach (['redis://127.0.0.1', 'redis://127.0.0.1:6380', 'redis://127.0.0.1:6380/2', 'redis://u:p%40ss@127.0.0.1:6380/0',
          'redis://:pw@localhost', 'tcp://127.0.0.1:6380', 'redis://[::1]:6380', 'unix:///run/redis.sock'] as $dsn) {
    new RLock('k', ['server' => $dsn]);
}
echo "ok\n";
?>
--EXPECT--
option "server" must be redis://[user:pass@]host[:port][/db], rediss://... (TLS), tcp://host:port or unix:///path
option "server" must be redis://[user:pass@]host[:port][/db], rediss://... (TLS), tcp://host:port or unix:///path
option "server" must be redis://[user:pass@]host[:port][/db], rediss://... (TLS), tcp://host:port or unix:///path
option "server" has no host
option "server" has no host
option "server" has an invalid port: it must be between 1 and 65535
option "server" has an invalid port: it must be between 1 and 65535
option "server" has an invalid port: it must be between 1 and 65535
option "server" has an invalid port: it must be between 1 and 65535
option "server" has an invalid database number: it must be between 0 and 2147483646
option "server" has an invalid database number: it must be between 0 and 2147483646
option "server" has an unterminated [IPv6] address
option "server" must not contain NUL bytes
option "server" must name an absolute socket path, as unix:///path/to/redis.sock
option "server" must be redis://[user:pass@]host[:port][/db], rediss://... (TLS), tcp://host:port or unix:///path
option "server" must be redis://[user:pass@]host[:port][/db], rediss://... (TLS), tcp://host:port or unix:///path
option "server" must be redis://[user:pass@]host[:port][/db], rediss://... (TLS), tcp://host:port or unix:///path
ok
