--TEST--
A second __construct() of any rlock object (a read-write lock's side and a multi lock too), and restore() on an object that holds, throw RLockException (not Error): every error rlock throws is a TypeError, ValueError or RLockException (the API fuzz, tests/fuzz/api.php)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options();
$rw = new RReadWriteLock('rw', $o);
$objects = [
    'RLock' => [new RLock('k', $o), ['other', $o]],
    'RSemaphore' => [new RSemaphore('s', 2, $o), ['other', 2, $o]],
    'RReadWriteLock' => [$rw, ['other', $o]],
    'RRateLimiter' => [new RRateLimiter('r', 5, 1000, $o), ['other', 5, 1000, $o]],
    'read side' => [$rw->readLock(), ['other', $o]],
    'multi' => [RLock::multi(['a', 'b'], $o), ['other', $o]],
];
foreach ($objects as $what => [$obj, $args]) {
    try {
        $obj->__construct(...$args);
        echo "$what: constructed again\n";
    } catch (Throwable $e) {
        echo "$what: ", get_class($e), ': ', $e->getMessage(), "\n";
    }
}
// the object is as it was
var_dump($objects['RLock'][0]->key());

$l = new RLock('held', $o);
var_dump($l->lock());
try {
    $l->restore($l->token());
} catch (Throwable $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
var_dump($l->isAcquired(), $l->unlock());
?>
--EXPECTF--
RLock: RLockException: Cannot call RLock::__construct() twice
RSemaphore: RLockException: Cannot call RSemaphore::__construct() twice
RReadWriteLock: RLockException: Cannot call RReadWriteLock::__construct() twice
RRateLimiter: RLockException: Cannot call RRateLimiter::__construct() twice
read side: RLockException: Cannot call RLock::__construct() twice
multi: RLockException: Cannot call RLock::__construct() twice
string(%d) "rlock-test:%s:k"
bool(true)
RLockException: RLock::restore(): this object holds the lock already
bool(true)
bool(true)
