--TEST--
php.ini integer settings out of range or not plain integers (2^64, -1, "abc", "1e3", 0) are refused at startup with a warning naming the range: the defaults stay, and locks work with them
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--INI--
rlock.ttl=18446744073709551615
rlock.wait=1e3
rlock.retry_delay=0
rlock.connect_timeout=-1
rlock.read_timeout=abc
rlock.sync_replicas=18446744073709551615
--FILE--
<?php
require __DIR__ . '/config.inc';
foreach (['ttl', 'wait', 'retry_delay', 'connect_timeout', 'read_timeout', 'sync_replicas'] as $name) {
    echo "rlock.$name=", ini_get("rlock.$name"), "\n";
}
// before: the ttl was stored wrapped, and every acquire failed with "ERR invalid expire time"
$l = new RLock('ini-limits', rlock_test_options());
var_dump($l->lock());
$pttl = rlock_test_cmd('PTTL', $l->key());
var_dump($pttl > 0 && $pttl <= 30000);
var_dump($l->unlock());
?>
--EXPECTF--
%AWarning: PHP Startup: Invalid rlock.sync_replicas: it must be an integer between 0 and 2147483647 in Unknown on line 0
%AWarning: PHP Startup: Invalid rlock.ttl: it must be an integer between 1 and 2147483647 in Unknown on line 0
%AWarning: PHP Startup: Invalid rlock.wait: it must be an integer between 0 and 2147483647 in Unknown on line 0
%AWarning: PHP Startup: Invalid rlock.retry_delay: it must be an integer between 1 and 2147483647 in Unknown on line 0
%AWarning: PHP Startup: Invalid rlock.connect_timeout: it must be an integer between 1 and 2147483647 in Unknown on line 0
%AWarning: PHP Startup: Invalid rlock.read_timeout: it must be an integer between 1 and 2147483647 in Unknown on line 0
rlock.ttl=30000
rlock.wait=0
rlock.retry_delay=50
rlock.connect_timeout=1000
rlock.read_timeout=1000
rlock.sync_replicas=0
bool(true)
bool(true)
bool(true)
