--TEST--
RSemaphore: opened with another permit count than its holder's, it never admits more than the holder's count (a 1-permit semaphore held: tryAcquire() of a 4-permit object false, available() 0); once the holder leaves, its own count applies
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$one = new RSemaphore('mismatch', 1, rlock_test_options());
$four = new RSemaphore('mismatch', 4, rlock_test_options());
var_dump($one->tryAcquire());
// before: true (4 permits held of a 1-permit semaphore), available 3
var_dump($four->tryAcquire(3), $four->tryAcquire(1), $four->available());
var_dump($one->release(), $four->available());
var_dump($four->tryAcquire(3), $four->held());
// the other way: 3 held under a count of 4, a 1-permit object finds nothing free
var_dump($one->tryAcquire(), $one->available(), $four->release(), $one->tryAcquire(), $one->release());
?>
--EXPECT--
bool(true)
bool(false)
bool(false)
int(0)
bool(true)
int(4)
bool(true)
int(3)
bool(false)
int(0)
bool(true)
bool(true)
bool(true)
