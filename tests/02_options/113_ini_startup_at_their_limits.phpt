--TEST--
php.ini integer settings out of range or not plain integers (2^64, -1, "abc", "1e3", 0) at startup: one warning each naming the value and the range, kept as given (never the default, never a wrapped value); a lock that would use one throws, a lock whose options give them all works
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
rlock.ttl=18446744073709551615
rlock.wait=1e3
rlock.retry_delay=0
rlock.connect_timeout=-1
rlock.read_timeout=abc
rlock.sync_replicas=18446744073709551615
--FILE--
<?php
require __DIR__ . '/../config.inc';
foreach (['ttl', 'wait', 'retry_delay', 'connect_timeout', 'read_timeout', 'sync_replicas'] as $name) {
    echo "rlock.$name=", ini_get("rlock.$name"), "\n";
}
try {
    new RLock('ini-limits', rlock_test_options());
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
// before: the ttl was stored wrapped, and every acquire failed with "ERR invalid expire time"
$l = new RLock('ini-limits', rlock_test_options(['ttl' => 30000, 'wait' => 0, 'retry_delay' => 50,
    'connect_timeout' => 1000, 'read_timeout' => 1000, 'sync_replicas' => 0]));
var_dump($l->lock());
$pttl = rlock_test_cmd('PTTL', $l->key());
var_dump($pttl > 0 && $pttl <= 30000);
var_dump($l->unlock());
?>
--EXPECTF--
%AWarning: PHP Startup: php.ini setting rlock.sync_replicas="18446744073709551615" must be between 0 and 2147483647; every call that uses it throws in Unknown on line 0
%AWarning: PHP Startup: php.ini setting rlock.ttl="18446744073709551615" must be between 100 and 2147483647 (milliseconds); every call that uses it throws in Unknown on line 0
%AWarning: PHP Startup: php.ini setting rlock.wait="1e3" must be an integer between 0 and 2147483647 (milliseconds); every call that uses it throws in Unknown on line 0
%AWarning: PHP Startup: php.ini setting rlock.retry_delay="0" must be between 1 and 2147483647 (milliseconds); every call that uses it throws in Unknown on line 0
%AWarning: PHP Startup: php.ini setting rlock.connect_timeout="-1" must be between 100 and 2147483647 (milliseconds); every call that uses it throws in Unknown on line 0
%AWarning: PHP Startup: php.ini setting rlock.read_timeout="abc" must be an integer between 100 and 2147483647 (milliseconds); every call that uses it throws in Unknown on line 0
rlock.ttl=18446744073709551615
rlock.wait=1e3
rlock.retry_delay=0
rlock.connect_timeout=-1
rlock.read_timeout=abc
rlock.sync_replicas=18446744073709551615
php.ini setting rlock.sync_replicas="18446744073709551615" must be between 0 and 2147483647
bool(true)
bool(true)
bool(true)
