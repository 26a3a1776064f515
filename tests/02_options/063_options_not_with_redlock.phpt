--TEST--
"sync_replicas" given with "servers" is a ValueError (the php.ini default does not apply to Redlock); an empty "service" is a ValueError
--EXTENSIONS--
rlock
--INI--
rlock.sync_replicas=1
--FILE--
<?php
$servers = ['redis://127.0.0.1:7001', 'redis://127.0.0.1:7002', 'redis://127.0.0.1:7003'];
foreach ([['servers' => $servers, 'sync_replicas' => 1], ['sentinel' => ['127.0.0.1:26379'], 'service' => '']] as $o) {
    try {
        new RLock('k', $o);
        echo "accepted\n";
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
new RLock('k', ['servers' => $servers]);
echo "php.ini default with servers: ok\n";
new RLock('k', ['servers' => $servers, 'sync_replicas' => 0]);
echo "sync_replicas 0 with servers: ok\n";
?>
--EXPECT--
RLock::__construct(): Argument #2 ($options) option "sync_replicas" works with "server", "cluster" or "sentinel", not with "servers"
RLock::__construct(): Argument #2 ($options) option "service" must not be empty
php.ini default with servers: ok
sync_replicas 0 with servers: ok
