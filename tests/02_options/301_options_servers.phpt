--TEST--
Option "servers" (Redlock): a list of 1 to 16 DSNs; anything else is a TypeError or ValueError naming it
--EXTENSIONS--
rlock
--FILE--
<?php
$cases = [
    'redis://127.0.0.1', null, 5, [], ['a' => 'redis://h'], [1 => 'redis://h'], [1], [null], [['redis://h']],
    array_fill(0, 17, 'redis://h'), ['redis://h:99999'], ['redis://h:0'], ['bogus://h'], ['redis://'],
    ["redis://h\0x"], ['redis://h', 'redis://h:1/x'], ['unix://relative'], ['redis://[::1'],
];
foreach ($cases as $servers) {
    try {
        new RLock('k', ['servers' => $servers]);
        echo "accepted: ", json_encode($servers), "\n";
    } catch (ValueError|TypeError $e) {
        echo get_class($e), ': ', str_replace("\0", '\0', $e->getMessage()), "\n";
    }
}
// every DSN form, up to 16 masters; nothing connects before the first call
$ok = [
    ['redis://127.0.0.1'],
    ['redis://h:1', 'tcp://h:2', 'h:3', '[::1]:4', 'unix:///tmp/x.sock', 'redis://u:p%40ss@h:5/2'],
    array_map(fn ($i) => "redis://127.0.0.1:" . (7000 + $i), range(1, 16)),
];
foreach ($ok as $servers) {
    $l = new RLock('k', ['servers' => $servers]);
    echo count($servers), " masters: ", $l->key(), "\n";
}
// the same checks in RLock::release()
try {
    RLock::release('k', 'token', ['servers' => []]);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
TypeError: RLock::__construct(): Argument #2 ($options) option "servers" must be of type array, string given
TypeError: RLock::__construct(): Argument #2 ($options) option "servers" must be of type array, null given
TypeError: RLock::__construct(): Argument #2 ($options) option "servers" must be of type array, int given
ValueError: RLock::__construct(): Argument #2 ($options) option "servers" must be a list of 1 to 16 strings
ValueError: RLock::__construct(): Argument #2 ($options) option "servers" must be a list of 1 to 16 strings
ValueError: RLock::__construct(): Argument #2 ($options) option "servers" must be a list of 1 to 16 strings
ValueError: RLock::__construct(): Argument #2 ($options) option "servers" must be a list of strings, int found
ValueError: RLock::__construct(): Argument #2 ($options) option "servers" must be a list of strings, null found
ValueError: RLock::__construct(): Argument #2 ($options) option "servers" must be a list of strings, array found
ValueError: RLock::__construct(): Argument #2 ($options) option "servers" must be a list of 1 to 16 strings
ValueError: RLock::__construct(): Argument #2 ($options) option "servers" entry 0 has an invalid port: it must be between 1 and 65535
ValueError: RLock::__construct(): Argument #2 ($options) option "servers" entry 0 has an invalid port: it must be between 1 and 65535
ValueError: RLock::__construct(): Argument #2 ($options) option "servers" entry 0 must be redis://[user:pass@]host[:port][/db], rediss://... (TLS), tcp://host:port or unix:///path
ValueError: RLock::__construct(): Argument #2 ($options) option "servers" entry 0 must be redis://[user:pass@]host[:port][/db], rediss://... (TLS), tcp://host:port or unix:///path
ValueError: RLock::__construct(): Argument #2 ($options) option "servers" entry 0 must not contain NUL bytes
ValueError: RLock::__construct(): Argument #2 ($options) option "servers" entry 1 has an invalid database number: it must be between 0 and 2147483646
ValueError: RLock::__construct(): Argument #2 ($options) option "servers" entry 0 must name an absolute socket path, as unix:///path/to/redis.sock
ValueError: RLock::__construct(): Argument #2 ($options) option "servers" entry 0 has an unterminated [IPv6] address
1 masters: rlock:k
6 masters: rlock:k
16 masters: rlock:k
RLock::release(): Argument #3 ($options) option "servers" must be a list of 1 to 16 strings
