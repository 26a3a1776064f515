--TEST--
A DSN's port and database number at their limits: accepted within 1-65535 and 0-2147483646, else a ValueError naming the range, in the array, the server lists and php.ini alike
--EXTENSIONS--
rlock
--FILE--
<?php
set_error_handler(function ($no, $msg) { echo "  warning: $msg\n"; return true; });
$dsns = ['redis://127.0.0.1:0', 'redis://127.0.0.1:1', 'redis://127.0.0.1:65535', 'redis://127.0.0.1:65536',
    'redis://127.0.0.1:18446744073709551617', 'redis://127.0.0.1:-1', 'redis://127.0.0.1/0', 'redis://127.0.0.1/2147483646',
    'redis://127.0.0.1/2147483647', 'redis://127.0.0.1/18446744073709551616', 'redis://127.0.0.1/-1', 'redis://127.0.0.1/1e3'];
foreach ($dsns as $dsn) {
    try {
        new RLock('k', ['server' => $dsn]);
        echo "$dsn: ok\n";
    } catch (ValueError $e) {
        echo "$dsn: ", $e->getMessage(), "\n";
    }
}
foreach (['cluster' => ['127.0.0.1:65536'], 'sentinel' => ['127.0.0.1:99999999999999999999'], 'servers' => ['redis://127.0.0.1/4294967296']] as $name => $list) {
    try {
        new RLock('k', [$name => $list, 'service' => 'm']);
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
// php.ini: kept as given, and the lock that would use it throws
foreach (['redis://127.0.0.1:65536', 'redis://127.0.0.1/2147483647'] as $dsn) {
    ini_set('rlock.server', $dsn);
    try {
        new RLock('k');
        echo "$dsn: ok\n";
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
redis://127.0.0.1:0: RLock::__construct(): Argument #2 ($options) option "server" has an invalid port: it must be between 1 and 65535
redis://127.0.0.1:1: ok
redis://127.0.0.1:65535: ok
redis://127.0.0.1:65536: RLock::__construct(): Argument #2 ($options) option "server" has an invalid port: it must be between 1 and 65535
redis://127.0.0.1:18446744073709551617: RLock::__construct(): Argument #2 ($options) option "server" has an invalid port: it must be between 1 and 65535
redis://127.0.0.1:-1: RLock::__construct(): Argument #2 ($options) option "server" has an invalid port: it must be between 1 and 65535
redis://127.0.0.1/0: ok
redis://127.0.0.1/2147483646: ok
redis://127.0.0.1/2147483647: RLock::__construct(): Argument #2 ($options) option "server" has an invalid database number: it must be between 0 and 2147483646
redis://127.0.0.1/18446744073709551616: RLock::__construct(): Argument #2 ($options) option "server" has an invalid database number: it must be between 0 and 2147483646
redis://127.0.0.1/-1: RLock::__construct(): Argument #2 ($options) option "server" has an invalid database number: it must be between 0 and 2147483646
redis://127.0.0.1/1e3: RLock::__construct(): Argument #2 ($options) option "server" has an invalid database number: it must be between 0 and 2147483646
RLock::__construct(): Argument #2 ($options) option "cluster" entry 0 has an invalid port: it must be between 1 and 65535
RLock::__construct(): Argument #2 ($options) option "sentinel" entry 0 has an invalid port: it must be between 1 and 65535
RLock::__construct(): Argument #2 ($options) option "servers" entry 0 has an invalid database number: it must be between 0 and 2147483646
php.ini setting rlock.server="redis://127.0.0.1:65536" has an invalid port: it must be between 1 and 65535
php.ini setting rlock.server="redis://127.0.0.1/2147483647" has an invalid database number: it must be between 0 and 2147483646
