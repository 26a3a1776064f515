--TEST--
Statistics count the watchdog's renewals (from its thread) under the lock's key, and a renewal that finds the lock gone as lost
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
rlock.stats_keys=16
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
// the lease scales with valgrind's slowdown: on a loaded machine 300 ms ran out before the
// watchdog's first renewal, and once in CI's ZTS step (beside the two valgrind steps) a lease
// of 300 ms had the test pass only on its retry: the watchdog renews every 400 ms, 800 ms
// before the lease would end
$l = new RLock('renewed', rlock_test_options(['ttl' => 1200 * $slow, 'watchdog' => true]));
var_dump($l->lock());
for ($deadline = microtime(true) + 10 * $slow; ($s = rlock_status())['keys'][$l->key()]['renewals'] < 3; usleep(10000)) {
    if (microtime(true) > $deadline) {
        die("never renewed 3 times\n");
    }
}
echo "renewed under its key: ", var_export($s['renewals'] >= 3 && $s['keys'][$l->key()]['renewals'] === $s['renewals'], true), "\n";
echo "none failed: ", $s['renewal_failures'], "\n";
// taken from under it: the next renewal finds it gone
rlock_test_cmd('DEL', $l->key());
for ($deadline = microtime(true) + 10 * $slow; !$l->lost(); usleep(10000)) {
    if (microtime(true) > $deadline) {
        die("never found lost\n");
    }
}
var_dump($l->unlock());
$k = rlock_status()['keys'][$l->key()];
echo "lost: {$k['lost']}, acquires: {$k['acquires']}\n";
?>
--EXPECT--
bool(true)
renewed under its key: true
none failed: 0
bool(false)
lost: 1, acquires: 1
