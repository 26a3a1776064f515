--TEST--
Reentrancy: a hold taken with reentrant off (as the framework bridges' locks take theirs) is another owner to every lock of the same key in the same context, reentrant or not: tryLock() false, lock(wait) times out, the hold stays; and a non-reentrant acquire of a key held reentrant is refused too
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$owner = new RLock('k', rlock_test_options(['reentrant' => false]));
var_dump($owner->lock());
$plain = new RLock('k', rlock_test_options());
echo "reentrant tryLock() on a non-reentrant hold: ", var_export($plain->tryLock(), true), "\n";
echo "reentrant lock(150): ", var_export($plain->lock(150), true), "\n";
echo "the hold stays: ", var_export($owner->isAcquired(), true), ", ", var_export(rlock_test_cmd('GET', $owner->key()) === $owner->token(), true), "\n";
var_dump($owner->unlock());
var_dump($plain->lock());
echo "non-reentrant tryLock() on a reentrant hold: ", var_export((new RLock('k', rlock_test_options(['reentrant' => false])))->tryLock(), true), "\n";
var_dump($plain->unlock());
?>
--EXPECT--
bool(true)
reentrant tryLock() on a non-reentrant hold: false
reentrant lock(150): false
the hold stays: true, true
bool(true)
bool(true)
non-reentrant tryLock() on a reentrant hold: false
bool(true)
