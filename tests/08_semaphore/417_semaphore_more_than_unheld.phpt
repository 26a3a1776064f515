--TEST--
RSemaphore: acquiring more permits than the object does not hold is a ValueError (it would queue for its own)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$s = new RSemaphore('own', 3, rlock_test_options());
var_dump($s->acquire(2));
foreach ([
    fn () => $s->acquire(2, 5000),
    fn () => $s->tryAcquire(2),
    fn () => $s->synchronized(fn () => null, 2, 5000),
] as $call) {
    try {
        $call();
        echo "no error\n";
    } catch (ValueError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
// nothing queued for it
var_dump(rlock_test_cmd('EXISTS', rlock_test_companion(rlock_test_options()['prefix'] . 'own', 'semaphore') . '-queue'));
var_dump($s->acquire(1, 5000), $s->held(), $s->release(), $s->acquire(3), $s->held());
?>
--EXPECT--
bool(true)
ValueError: RSemaphore::acquire(): Argument #1 ($permits) must be between 1 and 1 (the semaphore's 3 permits less the 2 this object holds)
ValueError: RSemaphore::tryAcquire(): Argument #1 ($permits) must be between 1 and 1 (the semaphore's 3 permits less the 2 this object holds)
ValueError: RSemaphore::synchronized(): Argument #2 ($permits) must be between 1 and 1 (the semaphore's 3 permits less the 2 this object holds)
int(0)
bool(true)
int(3)
bool(true)
bool(true)
int(3)
