--TEST--
RSemaphore: release() and extend() from a context that holds nothing through the object while another context (a Fiber) holds through it throw an RLockException naming the semaphore by its key (as its other messages do), not by the Redis key of its holders
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$s = new RSemaphore('sem', 2, rlock_test_options(['ttl' => 20000]));
$f = new Fiber(function () use ($s) {
    Fiber::suspend($s->acquire());
    echo "Fiber release: ", var_export($s->release(), true), "\n";
});
echo "Fiber acquire: ", var_export($f->start(), true), "\n";
foreach (['release', 'extend'] as $m) {
    try {
        $s->$m();
        echo "main $m: no exception\n";
    } catch (RLockException $e) {
        echo "main $m: ", str_replace(rlock_test_options()['prefix'], 'PREFIX:', $e->getMessage()), "\n";
    }
}
$f->resume();
?>
--EXPECT--
Fiber acquire: true
main release: Cannot release the semaphore "PREFIX:sem" from this execution context: another one (the main flow, another Fiber or another Swoole coroutine) holds it through this object, and a hold belongs to the context that took it
main extend: Cannot extend the semaphore "PREFIX:sem" from this execution context: another one (the main flow, another Fiber or another Swoole coroutine) holds it through this object, and a hold belongs to the context that took it
Fiber release: true
