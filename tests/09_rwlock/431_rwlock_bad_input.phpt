--TEST--
RReadWriteLock: an empty key, "servers" (Redlock), a bad option are ValueErrors naming the argument; wrong types TypeErrors
--EXTENSIONS--
rlock
--FILE--
<?php
$servers = ['redis://127.0.0.1:7001', 'redis://127.0.0.1:7002', 'redis://127.0.0.1:7003'];
foreach ([[''], ['k', ['servers' => $servers]], ['k', ['ttl' => 0]], ['k', ['nope' => 1]], ['k', ['cluster' => ['127.0.0.1:7000']]],
        ['a}b', ['cluster' => ['127.0.0.1:7000']]], [[]], ['k', ['ttl' => 'x']]] as $args) {
    try {
        new RReadWriteLock(...$args);
        echo "accepted\n";
    } catch (ValueError | TypeError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
ValueError: RReadWriteLock::__construct(): Argument #1 ($key) must not be empty
ValueError: RReadWriteLock::__construct(): Argument #2 ($options) option "servers" (Redlock) is not supported by RReadWriteLock: use "server", "cluster" or "sentinel"
ValueError: RReadWriteLock::__construct(): Argument #2 ($options) option "ttl" must be between 100 and 2147483647 (milliseconds)
ValueError: RReadWriteLock::__construct(): Argument #2 ($options) unknown option "nope"
accepted
ValueError: RReadWriteLock::__construct(): Argument #1 ($key) must not contain "}" outside a {hash tag} with the "cluster" option, or its companion keys could not share its slot
TypeError: RReadWriteLock::__construct(): Argument #1 ($key) must be of type string, array given
TypeError: RReadWriteLock::__construct(): Argument #2 ($options) option "ttl" must be of type int, string given
