--TEST--
watchdog: RLock::multi with ttl 300 held for 1 s has every key renewed; a key taken from it marks it lost, and unlock() gives back the keys still ours
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../watchdog.inc';
$s = rlock_test_slow();
$o = rlock_test_options(['ttl' => 300 * $s, 'watchdog' => true]);
$p = $o['prefix'];
$m = RLock::multi(['a', 'b'], $o);
var_dump($m->tryLock());
$min = PHP_INT_MAX;
for ($i = 0; $i < 20; $i++) {
    rlock_test_sleep(50 * $s);
    $min = min($min, rlock_test_cmd('PTTL', "{$p}a"), rlock_test_cmd('PTTL', "{$p}b"));
}
var_dump($min > 0 && $min <= 300 * $s);
var_dump($m->isAcquired(), $m->lost(), rlock_test_info('Watchdog locks renewed now'));

rlock_test_cmd('SET', "{$p}b", 'someone else');
$deadline = hrtime(true) + 5e9 * $s;
while (!$m->lost() && hrtime(true) < $deadline) {
    rlock_test_sleep(10);
}
var_dump($m->lost(), $m->isAcquired());
var_dump($m->unlock(), rlock_test_cmd('EXISTS', "{$p}a"), rlock_test_cmd('GET', "{$p}b"));
var_dump(rlock_test_info('Watchdog locks renewed now'));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(false)
int(2)
bool(true)
bool(false)
bool(false)
int(0)
string(12) "someone else"
int(0)
