--TEST--
watchdog: extend($ttl) sets the lease the watchdog renews to from then on
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../watchdog.inc';
$s = rlock_test_slow();
$l = new RLock('a', rlock_test_options(['ttl' => 300 * $s, 'watchdog' => true]));
$l->tryLock();
var_dump($l->extend(3000 * $s));
rlock_test_sleep(1200 * $s);
$pttl = rlock_test_cmd('PTTL', $l->key());
var_dump($pttl > 300 * $s && $pttl <= 3000 * $s);
var_dump($l->unlock());
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
