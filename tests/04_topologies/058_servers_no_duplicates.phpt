--TEST--
"servers" (and "cluster", "sentinel") naming the same server twice is a ValueError naming the option, not one connection used twice
--EXTENSIONS--
rlock
--FILE--
<?php
foreach (['servers' => ['redis://127.0.0.1:7000', 'redis://127.0.0.1:7001', 'redis://127.0.0.1:7000'],
          'cluster' => ['127.0.0.1:7000', 'tcp://127.0.0.1:7000']] as $name => $list) {
    try {
        new RLock('k', [$name => $list]);
        echo "accepted\n";
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
// the same host and port with another database or user is another server
$l = new RLock('k', ['servers' => ['redis://127.0.0.1:7000/1', 'redis://127.0.0.1:7000/2', 'redis://u:p@127.0.0.1:7000']]);
echo "distinct: ok\n";
?>
--EXPECT--
RLock::__construct(): Argument #2 ($options) option "servers" entry 2 names the same server as entry 0
RLock::__construct(): Argument #2 ($options) option "cluster" entry 1 names the same server as entry 0
distinct: ok
