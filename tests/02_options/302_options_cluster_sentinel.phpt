--TEST--
Options "cluster", "sentinel", "service" and "sync_replicas": bad values are a TypeError or ValueError naming the option
--EXTENSIONS--
rlock
--FILE--
<?php
$cases = [
    ['cluster' => 'h:1'], ['cluster' => []], ['cluster' => ['a' => 'h:1']], ['cluster' => [1]],
    ['cluster' => [['h:1']]], ['cluster' => ['h:0']], ['cluster' => ['h:x']], ['cluster' => ['h:1', ':2']],
    ['cluster' => array_fill(0, 17, 'h:1')],
    ['sentinel' => 'h:1', 'service' => 'm'], ['sentinel' => [], 'service' => 'm'], ['sentinel' => [true], 'service' => 'm'],
    ['sentinel' => ['h:65536'], 'service' => 'm'],
    ['sentinel' => ['h:1'], 'service' => new stdClass], ['sentinel' => ['h:1'], 'service' => null], ['sentinel' => ['h:1'], 'service' => ['m']],
    ['sync_replicas' => -1], ['sync_replicas' => 'one'], ['sync_replicas' => 1.5], ['sync_replicas' => [1]], ['sync_replicas' => null],
];
foreach ($cases as $c) {
    try {
        new RLock('k', $c);
        echo "accepted: ", json_encode($c), "\n";
    } catch (ValueError|TypeError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
// good values; nothing connects before the first call
$ok = [
    ['cluster' => ['127.0.0.1:7000']],
    ['cluster' => ['h:1', 'tcp://h:2', 'redis://h:3', '[::1]:4']],
    ['cluster' => ['h:1'], 'server' => 'redis://user:pass@h:1'],  // "server" lends its credentials
    ['sentinel' => ['h:26379', 'redis://h:26380'], 'service' => 'mymaster'],
    ['sync_replicas' => 0], ['sync_replicas' => 2], ['cluster' => ['h:1'], 'sync_replicas' => 1],
    ['sentinel' => ['h:1'], 'service' => 'm', 'sync_replicas' => 1],
];
foreach ($ok as $c) {
    new RLock('k', $c);
    echo "ok: ", implode(', ', array_keys($c)), "\n";
}
?>
--EXPECT--
TypeError: RLock::__construct(): Argument #2 ($options) option "cluster" must be of type array, string given
ValueError: RLock::__construct(): Argument #2 ($options) option "cluster" must be a list of 1 to 16 strings
ValueError: RLock::__construct(): Argument #2 ($options) option "cluster" must be a list of 1 to 16 strings
ValueError: RLock::__construct(): Argument #2 ($options) option "cluster" must be a list of strings, int found
ValueError: RLock::__construct(): Argument #2 ($options) option "cluster" must be a list of strings, array found
ValueError: RLock::__construct(): Argument #2 ($options) option "cluster" entry 0 has an invalid port: it must be between 1 and 65535
ValueError: RLock::__construct(): Argument #2 ($options) option "cluster" entry 0 has an invalid port: it must be between 1 and 65535
ValueError: RLock::__construct(): Argument #2 ($options) option "cluster" entry 1 has no host
ValueError: RLock::__construct(): Argument #2 ($options) option "cluster" must be a list of 1 to 16 strings
TypeError: RLock::__construct(): Argument #2 ($options) option "sentinel" must be of type array, string given
ValueError: RLock::__construct(): Argument #2 ($options) option "sentinel" must be a list of 1 to 16 strings
ValueError: RLock::__construct(): Argument #2 ($options) option "sentinel" must be a list of strings, bool found
ValueError: RLock::__construct(): Argument #2 ($options) option "sentinel" entry 0 has an invalid port: it must be between 1 and 65535
TypeError: RLock::__construct(): Argument #2 ($options) option "service" must be of type string, stdClass given
TypeError: RLock::__construct(): Argument #2 ($options) option "service" must be of type string, null given
TypeError: RLock::__construct(): Argument #2 ($options) option "service" must be of type string, array given
ValueError: RLock::__construct(): Argument #2 ($options) option "sync_replicas" must be between 0 and 2147483647
TypeError: RLock::__construct(): Argument #2 ($options) option "sync_replicas" must be of type int, string given
TypeError: RLock::__construct(): Argument #2 ($options) option "sync_replicas" must be of type int, float given
TypeError: RLock::__construct(): Argument #2 ($options) option "sync_replicas" must be of type int, array given
TypeError: RLock::__construct(): Argument #2 ($options) option "sync_replicas" must be of type int, null given
ok: cluster
ok: cluster
ok: cluster, server
ok: sentinel, service
ok: sync_replicas
ok: sync_replicas
ok: cluster, sync_replicas
ok: sentinel, service, sync_replicas
