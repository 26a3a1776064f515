--TEST--
Fibers: an RSemaphore object's permits are held per execution context. Two Fibers taking permits through one object are two holders, each with a token of its own: one's release() gives back its own permits only (the other's release() while only the first holds throws), and a 1-permit semaphore held by one Fiber admits no other
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['ttl' => 20000]);
$sem = new RSemaphore('pool', 2, $o);

$a = new Fiber(function () use ($sem) {
    Fiber::suspend($sem->acquire());
    echo "A held: ", $sem->held(), ", release: ", var_export($sem->release(), true), "\n";
});
echo "A acquire: ", var_export($a->start(), true), "\n";
$b = new Fiber(function () use ($sem) {
    echo "B tryAcquire: ", var_export($sem->tryAcquire(), true), ", held: ", $sem->held(), ", free: ", $sem->available(), "\n";
    echo "B release: ", var_export($sem->release(), true), ", free: ", $sem->available(), ", B held: ", $sem->held(), "\n";
    try {
        $sem->release();
    } catch (RLockException $e) {
        echo "B release again while A holds: ", get_class($e), "\n";
    }
});
$b->start();
echo "main flow held: ", $sem->held(), "\n";
$a->resume();
echo "free: ", $sem->available(), "\n";

// one permit: a Fiber holding it keeps the other Fibers out
$one = new RSemaphore('one', 1, $o);
$c = new Fiber(function () use ($one) { Fiber::suspend($one->acquire()); $one->release(); });
echo "C acquire: ", var_export($c->start(), true), "\n";
$d = new Fiber(fn () => [$one->tryAcquire(), $one->acquire(1, 200)]);
$d->start();
echo "D tryAcquire, acquire(1, 200): ", json_encode($d->getReturn()), "\n";
$c->resume();
echo "free: ", $one->available(), "\n";
?>
--EXPECT--
A acquire: true
B tryAcquire: true, held: 1, free: 0
B release: true, free: 1, B held: 0
B release again while A holds: RLockException
main flow held: 0
A held: 1, release: true
free: 2
C acquire: true
D tryAcquire, acquire(1, 200): [false,false]
free: 1
