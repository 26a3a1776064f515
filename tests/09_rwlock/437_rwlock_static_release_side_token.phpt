--TEST--
RReadWriteLock: RLock::release() given a side's key() (the lock's own key, prefix included) or its key as the constructor took it, and the side's token, releases that side, as a side handed to a job is released; waiters are let in; a token that no side holds releases nothing; the side's internal Redis key is no key of a lock
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options();
$rw = new RReadWriteLock('stock', $o);
$other = new RReadWriteLock('stock', ['reentrant' => false] + $o);
$w = $rw->writeLock();
echo "write side, by key(): ";
var_dump($w->tryLock(), $w->key() === $o['prefix'] . 'stock', RLock::release($w->key(), $w->token(), $o),
    $w->isAcquired(), $other->writeLock()->tryLock(), $other->writeLock()->unlock());
echo "write side, by the constructor's key: ";
var_dump($w->tryLock(), RLock::release('stock', $w->token(), $o), $other->readLock()->tryLock(), $other->readLock()->unlock());
echo "read side: ";
$r = $rw->readLock();
var_dump($r->tryLock(), $other->writeLock()->tryLock(), RLock::release($r->key(), $r->token(), $o),
    $r->isAcquired(), $other->writeLock()->tryLock(), $other->writeLock()->unlock());
echo "nothing held by the token: ";
var_dump($r->tryLock(), RLock::release('stock', str_repeat('0', 32), $o), $r->isAcquired());
echo "the side's Redis key: ";
var_dump(RLock::release(rlock_test_companion($r->key(), 'read'), $r->token(), ['prefix' => ''] + $o), $r->isAcquired(),
    $r->unlock());
?>
--EXPECT--
write side, by key(): bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
write side, by the constructor's key: bool(true)
bool(true)
bool(true)
bool(true)
read side: bool(true)
bool(false)
bool(true)
bool(false)
bool(true)
bool(true)
nothing held by the token: bool(true)
bool(false)
bool(true)
the side's Redis key: bool(false)
bool(true)
bool(true)
