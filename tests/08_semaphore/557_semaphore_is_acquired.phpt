--TEST--
RSemaphore::isAcquired() asks Redis whether the object's permits are still its own: true while the lease runs, false once it ended and another took the permit (held() counts what the object took)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$a = new RSemaphore('asked', 1, rlock_test_options(['ttl' => 300]));
$b = new RSemaphore('asked', 1, rlock_test_options());
var_dump($a->isAcquired(), $a->tryAcquire(), $a->isAcquired());
$deadline = microtime(true) + 10 * $slow;
while (!$b->tryAcquire()) {
    if (microtime(true) > $deadline) {
        die("the lease never ended\n");
    }
    usleep(10000);
}
var_dump($a->isAcquired(), $a->held(), $b->isAcquired(), $b->release(), $a->release());
?>
--EXPECT--
bool(false)
bool(true)
bool(true)
bool(false)
int(1)
bool(true)
bool(true)
bool(false)
