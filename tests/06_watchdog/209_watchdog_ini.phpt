--TEST--
watchdog: php.ini rlock.watchdog=1 turns it on for every lock on one server or Redlock masters; the option turns it off
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
rlock.watchdog=1
--FILE--
<?php
require __DIR__ . '/../watchdog.inc';
/* the lease and the wait scale with the slow factor: under valgrind on a busy machine the
 * renewal thread can start later than a 300 ms lease lasts (and so it did once without
 * valgrind, beside a CI run: a lease of 1 s) */
$s = rlock_test_slow();
$on = new RLock('a', rlock_test_options(['ttl' => 1000 * $s]));
$off = new RLock('b', rlock_test_options(['ttl' => 1000 * $s, 'watchdog' => false]));
$on->tryLock();
$off->tryLock();
rlock_test_sleep(2000 * $s);
var_dump(rlock_test_cmd('EXISTS', $on->key()), rlock_test_cmd('EXISTS', $off->key()));
var_dump($on->unlock(), $off->unlock());
/* the php.ini default applies to Redlock locks too (a lease long enough to outlast phpinfo()
 * under valgrind on a busy machine: nothing here waits for it) */
$redlock = new RLock('c', ['servers' => [RLOCK_TEST_DSN, RLOCK_TEST_DSN . '/1', RLOCK_TEST_DSN . '/2'], 'ttl' => 10000]);
var_dump($redlock->tryLock(), rlock_test_info('Watchdog locks renewed now'), $redlock->unlock());
?>
--EXPECT--
int(1)
int(0)
bool(true)
bool(false)
bool(true)
int(1)
bool(true)
