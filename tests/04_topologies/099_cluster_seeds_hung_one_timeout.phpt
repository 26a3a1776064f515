--TEST--
Hung Cluster seeds cost one read_timeout at most, not one each: they are asked for the slot map all at once, and the first answer is taken
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
require __DIR__ . '/../fake_redis.inc';
$slow = rlock_test_slow();
$hung = [];
for ($i = 0; $i < 3; $i++) {
    $s = rlock_test_own_server();
    exec("kill -STOP {$s['pid']}");
    $hung[] = "127.0.0.1:{$s['port']}";
}
// a seed whose slot map puts every slot on the test server
$good = rlock_fake_redis(['CLUSTER' => rlock_resp([[0, 16383, [RLOCK_TEST_HOST, RLOCK_TEST_PORT]]])]);

$opts = ['connect_timeout' => 500, 'read_timeout' => 500];
$l = new RLock('k', ['cluster' => [...$hung, $good['addr']]] + rlock_test_options($opts));
$t = microtime(true);
var_dump($l->tryLock(), $l->unlock());
$ms = (microtime(true) - $t) * 1000;
// before: one read_timeout per hung seed asked before the good one (1500 ms)
echo "3 hung and 1 good: within one read_timeout: ", var_export($ms < 1000 * $slow, true), "\n";

$l = new RLock('k', ['cluster' => $hung] + rlock_test_options($opts));
$t = microtime(true);
try {
    $l->tryLock();
    echo "no exception\n";
} catch (RLockConnectionException $e) {
    $ms = (microtime(true) - $t) * 1000;
    echo get_class($e), "\n";
    // connect + read timeout at most (before: 3 x read_timeout, 1500 ms)
    echo "3 hung: within its deadline: ", var_export($ms >= 450 && $ms < 1200 * $slow, true), "\n";
}
?>
--EXPECT--
bool(true)
bool(true)
3 hung and 1 good: within one read_timeout: true
RLockConnectionException
3 hung: within its deadline: true
