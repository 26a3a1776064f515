--TEST--
watchdog option: a bool, off by default (php.ini rlock.watchdog), TypeError otherwise; with every topology (one server, Redlock masters, Sentinel, Cluster)
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
new RLock('a', ['watchdog' => true, 'servers' => [RLOCK_TEST_DSN, RLOCK_TEST_DSN . '/1', RLOCK_TEST_DSN . '/2']]);
new RLock('a', ['watchdog' => true, 'sentinel' => ['127.0.0.1:26379'], 'service' => 'mymaster']);
new RLock('a', ['watchdog' => true, 'cluster' => [RLOCK_TEST_DSN]]);
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
bool(true)
int(0)
int(0)
