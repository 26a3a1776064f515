--TEST--
Unknown option names, and the options of later versions (cluster, watchdog, sync_replicas, sentinel), are rejected rather than ignored
--EXTENSIONS--
rlock
--FILE--
<?php
$names = ['x', 'TTL', 'timeout', 'cluster', 'watchdog', 'sync_replicas', 'sentinel', 'service', "ttl\0"];
foreach ($names as $n) {
    try {
        new RLock('k', [$n => 1]);
        echo "accepted: $n\n";
    } catch (ValueError $e) {
        echo str_replace("\0", '\0', $e->getMessage()), "\n";
    }
}
try {
    RLock::release('k', 'token', ['cluster' => ['127.0.0.1:7000']]);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
// lost() comes with the watchdog, later
var_dump(method_exists('RLock', 'lost'));
?>
--EXPECTF--
RLock::__construct(): Argument #2 ($options) unknown option "x"
RLock::__construct(): Argument #2 ($options) unknown option "TTL"
RLock::__construct(): Argument #2 ($options) unknown option "timeout"
RLock::__construct(): Argument #2 ($options) unknown option "cluster"
RLock::__construct(): Argument #2 ($options) unknown option "watchdog"
RLock::__construct(): Argument #2 ($options) unknown option "sync_replicas"
RLock::__construct(): Argument #2 ($options) unknown option "sentinel"
RLock::__construct(): Argument #2 ($options) unknown option "service"
RLock::__construct(): Argument #2 ($options) unknown option "ttl%A"
RLock::release(): Argument #3 ($options) unknown option "cluster"
bool(false)
