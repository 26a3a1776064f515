--TEST--
watchdog: nested holds are renewed until the outermost unlock, and a hold renewed past its ttl can still be re-entered
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../watchdog.inc';
$s = rlock_test_slow();
$o = rlock_test_options(['ttl' => 300 * $s, 'watchdog' => true]);
$outer = new RLock('a', $o);
$inner = new RLock('a', $o);
var_dump($outer->tryLock(), $inner->tryLock(), $inner->token() === $outer->token());
var_dump($inner->unlock());
rlock_test_sleep(600 * $s);
var_dump(rlock_test_cmd('GET', $outer->key()) === $outer->token(), $outer->isAcquired());
$again = new RLock('a', $o);
var_dump($again->tryLock(), $again->token() === $outer->token(), $again->unlock());
var_dump($outer->unlock(), rlock_test_cmd('EXISTS', $outer->key()));
var_dump(rlock_test_info('Watchdog locks renewed now'));

/* a reentrant hold with the watchdog on a lock taken without it starts the renewal */
$plain = new RLock('b', rlock_test_options(['ttl' => 300 * $s]));
$watched = new RLock('b', $o);
var_dump($plain->tryLock(), $watched->tryLock());
rlock_test_sleep(600 * $s);
var_dump($plain->isAcquired());
var_dump($watched->unlock(), $plain->unlock());
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
