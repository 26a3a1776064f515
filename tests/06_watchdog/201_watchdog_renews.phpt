--TEST--
watchdog: a lock with ttl 300 held for 1.5 s is renewed and stays ours; unlock() releases it
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../watchdog.inc';
$s = rlock_test_slow();
$l = new RLock('a', rlock_test_options(['ttl' => 300 * $s, 'watchdog' => true]));
var_dump($l->tryLock());
$min = PHP_INT_MAX;
for ($i = 0; $i < 30; $i++) {
    rlock_test_sleep(50 * $s);
    $min = min($min, rlock_test_cmd('PTTL', $l->key()));
}
var_dump($min > 0 && $min <= 300 * $s);
var_dump(rlock_test_cmd('GET', $l->key()) === $l->token());
var_dump($l->isAcquired(), $l->lost());
var_dump(rlock_test_info('Watchdog locks renewed now'));
var_dump(rlock_test_info('Watchdog renewals') >= 10);
var_dump($l->unlock());
var_dump(rlock_test_cmd('EXISTS', $l->key()));
var_dump(rlock_test_info('Watchdog locks renewed now'));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
int(1)
bool(true)
bool(true)
int(0)
int(0)
