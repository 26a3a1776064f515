--TEST--
watchdog: renewal stops when the object is destroyed (released with auto_release, left to expire without)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../watchdog.inc';
$l = new RLock('a', rlock_test_options(['ttl' => 300, 'watchdog' => true]));
$l->tryLock();
$key = $l->key();
unset($l);
var_dump(rlock_test_cmd('EXISTS', $key), rlock_test_info('Watchdog locks renewed now'));

$s = rlock_test_slow();
$l = new RLock('b', rlock_test_options(['ttl' => 300 * $s, 'watchdog' => true, 'auto_release' => false]));
$l->tryLock();
$key = $l->key();
$token = $l->token();
rlock_test_sleep(500 * $s);
var_dump(rlock_test_cmd('GET', $key) === $token);  /* renewed while the object lives */
unset($l);
var_dump(rlock_test_info('Watchdog locks renewed now'));
rlock_test_sleep(500 * $s);
var_dump(rlock_test_cmd('EXISTS', $key));  /* not renewed once it is gone */
?>
--EXPECT--
int(0)
int(0)
bool(true)
int(0)
int(0)
