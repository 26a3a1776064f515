--TEST--
RLock::restore($token): an object becomes the holder a token names (a lock taken elsewhere, handed over), if that token holds the lock now: unlock(), extend(), isAcquired(), ttl() act as it, auto_release gives it back; false for a token that holds nothing
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['ttl' => 20000]);
// taken by an object let go with auto_release off, as a request that hands it to a job
$taker = new RLock('handed', ['auto_release' => false] + $o);
var_dump($taker->lock());
$token = $taker->token();
unset($taker);
$l = new RLock('handed', $o);
var_dump($l->restore(str_repeat('0', 32)), $l->token());
var_dump($l->restore($token), $l->token() === $token, $l->isAcquired(), $l->ttl() > 15000);
var_dump($l->extend(30000), rlock_test_cmd('PTTL', $l->key()) > 25000);
try {
    $l->restore($token);
} catch (RLockException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
try {
    (new RLock('handed', $o))->restore('');
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
var_dump($l->unlock(), rlock_test_cmd('EXISTS', $l->key()));
// with auto_release (the default) a restored hold is given back when the object goes
$taker = new RLock('handed', ['auto_release' => false] + $o);
var_dump($taker->lock());
$restored = new RLock('handed', $o);
var_dump($restored->restore($taker->token()));
unset($restored);
var_dump(rlock_test_cmd('EXISTS', $taker->key()), $taker->unlock());
// a read-write lock's side
$rw = new RReadWriteLock('handed-rw', ['auto_release' => false] + $o);
var_dump($rw->readLock()->lock());
$reader = $rw->readLock()->token();
unset($rw);
$rw = new RReadWriteLock('handed-rw', $o);
var_dump($rw->writeLock()->restore($reader), $rw->readLock()->restore($reader), $rw->readLock()->unlock());
var_dump($rw->writeLock()->tryLock(), $rw->writeLock()->unlock());
?>
--EXPECT--
bool(true)
bool(false)
NULL
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
RLockException: RLock::restore(): this object holds the lock already
RLock::restore(): Argument #1 ($token) must not be empty
bool(true)
int(0)
bool(true)
bool(true)
int(0)
bool(false)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
