--TEST--
"servers", "cluster" and "sentinel" exclude each other, "server" excludes "servers", "sentinel" needs "service"
--EXTENSIONS--
rlock
--FILE--
<?php
$cases = [
    ['servers' => ['redis://a'], 'cluster' => ['b:1']],
    ['servers' => ['redis://a'], 'sentinel' => ['b:1'], 'service' => 'm'],
    ['cluster' => ['b:1'], 'sentinel' => ['b:1'], 'service' => 'm'],
    ['servers' => ['redis://a'], 'cluster' => ['b:1'], 'sentinel' => ['b:1'], 'service' => 'm'],
    ['server' => 'redis://a', 'servers' => ['redis://b']],
    ['servers' => ['redis://b'], 'server' => 'redis://a'],
    ['sentinel' => ['b:1']],
    ['service' => 'm'],
    ['servers' => ['redis://a'], 'service' => 'm'],
    ['cluster' => ['b:1'], 'service' => 'm'],
];
foreach ($cases as $c) {
    try {
        new RLock('k', $c);
        echo "accepted: ", implode(', ', array_keys($c)), "\n";
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
    try {
        RLock::release('k', 'token', $c);
        echo "release accepted: ", implode(', ', array_keys($c)), "\n";
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
RLock::__construct(): Argument #2 ($options) options "servers", "cluster" and "sentinel" exclude each other
RLock::release(): Argument #3 ($options) options "servers", "cluster" and "sentinel" exclude each other
RLock::__construct(): Argument #2 ($options) options "servers", "cluster" and "sentinel" exclude each other
RLock::release(): Argument #3 ($options) options "servers", "cluster" and "sentinel" exclude each other
RLock::__construct(): Argument #2 ($options) options "servers", "cluster" and "sentinel" exclude each other
RLock::release(): Argument #3 ($options) options "servers", "cluster" and "sentinel" exclude each other
RLock::__construct(): Argument #2 ($options) options "servers", "cluster" and "sentinel" exclude each other
RLock::release(): Argument #3 ($options) options "servers", "cluster" and "sentinel" exclude each other
RLock::__construct(): Argument #2 ($options) options "server" and "servers" exclude each other
RLock::release(): Argument #3 ($options) options "server" and "servers" exclude each other
RLock::__construct(): Argument #2 ($options) options "server" and "servers" exclude each other
RLock::release(): Argument #3 ($options) options "server" and "servers" exclude each other
RLock::__construct(): Argument #2 ($options) options "sentinel" and "service" go together
RLock::release(): Argument #3 ($options) options "sentinel" and "service" go together
RLock::__construct(): Argument #2 ($options) options "sentinel" and "service" go together
RLock::release(): Argument #3 ($options) options "sentinel" and "service" go together
RLock::__construct(): Argument #2 ($options) options "sentinel" and "service" go together
RLock::release(): Argument #3 ($options) options "sentinel" and "service" go together
RLock::__construct(): Argument #2 ($options) options "sentinel" and "service" go together
RLock::release(): Argument #3 ($options) options "sentinel" and "service" go together
