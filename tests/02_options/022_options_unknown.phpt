--TEST--
Unknown option names are rejected rather than ignored
--EXTENSIONS--
rlock
--FILE--
<?php
$names = ['x', 'TTL', 'timeout', 'server ', 'lost', 'Watchdog', "ttl\0"];
foreach ($names as $n) {
    try {
        new RLock('k', [$n => 1]);
        echo "accepted: $n\n";
    } catch (ValueError $e) {
        echo str_replace("\0", '\0', $e->getMessage()), "\n";
    }
}
try {
    RLock::release('k', 'token', ['watchdogs' => true]);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECTF--
RLock::__construct(): Argument #2 ($options) unknown option "x"
RLock::__construct(): Argument #2 ($options) unknown option "TTL"
RLock::__construct(): Argument #2 ($options) unknown option "timeout"
RLock::__construct(): Argument #2 ($options) unknown option "server "
RLock::__construct(): Argument #2 ($options) unknown option "lost"
RLock::__construct(): Argument #2 ($options) unknown option "Watchdog"
RLock::__construct(): Argument #2 ($options) unknown option "ttl%A"
RLock::release(): Argument #3 ($options) unknown option "watchdogs"
