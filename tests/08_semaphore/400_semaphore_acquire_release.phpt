--TEST--
RSemaphore: acquire() and tryAcquire() take n permits or none, held() and available() count them, release() gives back all, nothing is left in Redis
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options();
$a = new RSemaphore('pay', 3, $o);
$b = new RSemaphore('pay', 3, $o);
var_dump($a->available());
var_dump($a->acquire(2), $a->held(), $a->available());
// 2 do not fit in the 1 left: none taken
var_dump($b->tryAcquire(2), $b->held());
var_dump($b->tryAcquire(1), $b->held(), $b->available());
// more on top of what a holder has
var_dump($b->release(), $a->acquire(1), $a->held(), $a->available());
var_dump($a->release(), $a->held(), $a->available());
// released twice: nothing held any more
var_dump($a->release());
var_dump(rlock_test_cmd('KEYS', $o['prefix'] . '*'), rlock_test_cmd('KEYS', '}*' . $o['prefix'] . '*'));
?>
--EXPECT--
int(3)
bool(true)
int(2)
int(1)
bool(false)
int(0)
bool(true)
int(1)
int(0)
bool(true)
bool(true)
int(3)
int(0)
bool(true)
int(0)
int(3)
bool(false)
array(0) {
}
array(0) {
}
