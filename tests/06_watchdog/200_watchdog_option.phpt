--TEST--
watchdog option: a bool, off by default (php.ini rlock.watchdog), TypeError otherwise; one server only
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../watchdog.inc';
var_dump(ini_get('rlock.watchdog'));
new RLock('a', rlock_test_options(['watchdog' => true]));
new RLock('a', rlock_test_options(['watchdog' => false]));
try {
    new RLock('a', rlock_test_options(['watchdog' => [1]]));
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
foreach ([['servers' => [RLOCK_TEST_DSN, RLOCK_TEST_DSN . '/1', RLOCK_TEST_DSN . '/2']], ['cluster' => [RLOCK_TEST_DSN]],
        ['sentinel' => ['127.0.0.1:26379'], 'service' => 'mymaster']] as $where) {
    try {
        new RLock('a', ['watchdog' => true] + $where);
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
/* off by default: a short lease runs out */
$l = new RLock('a', rlock_test_options(['ttl' => 200]));
var_dump($l->tryLock());
rlock_test_sleep(500);
var_dump(rlock_test_cmd('EXISTS', $l->key()));
var_dump(rlock_test_info('Watchdog locks renewed now'));
?>
--EXPECT--
string(1) "0"
RLock::__construct(): Argument #2 ($options) option "watchdog" must be of type bool, array given
RLock::__construct(): Argument #2 ($options) option "watchdog" works with one "server" only, not with "servers", "cluster" or "sentinel"
RLock::__construct(): Argument #2 ($options) option "watchdog" works with one "server" only, not with "servers", "cluster" or "sentinel"
RLock::__construct(): Argument #2 ($options) option "watchdog" works with one "server" only, not with "servers", "cluster" or "sentinel"
bool(true)
int(0)
int(0)
