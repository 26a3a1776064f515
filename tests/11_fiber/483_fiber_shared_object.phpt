--TEST--
Fibers: one RLock object used by two Fibers (or the main flow and a Fiber): each context's hold through it is its own. The second one's lock() waits as another owner would; its unlock() or extend() while the other holds throws an RLockException saying why, never touching the other's hold; isAcquired(), token(), lost() answer for the calling context
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['ttl' => 20000]);
$l = new RLock('shared', $o);

$a = new Fiber(function () use ($l) {
    Fiber::suspend($l->lock());
    echo "A unlock: ", var_export($l->unlock(), true), "\n";
    Fiber::suspend();
    echo "A token while B holds: ", var_export($l->token(), true), ", isAcquired: ", var_export($l->isAcquired(), true), "\n";
});
echo "A lock: ", var_export($a->start(), true), "\n";
$tokenA = $l->token() ?? rlock_test_cmd('GET', $l->key());

$b = new Fiber(function () use ($l, $tokenA) {
    echo "B tryLock: ", var_export($l->tryLock(), true), ", lock(200): ", var_export($l->lock(200), true), "\n";
    echo "B isAcquired: ", var_export($l->isAcquired(), true), ", token: ", var_export($l->token(), true),
        ", lost: ", var_export($l->lost(), true), "\n";
    foreach (['unlock', 'extend'] as $m) {
        try {
            $l->$m();
            echo "B $m: no exception\n";
        } catch (RLockException $e) {
            echo "B $m: ", get_class($e), ": ", str_replace($l->key(), 'KEY', $e->getMessage()), "\n";
        }
    }
    echo "A's hold untouched: ", var_export(rlock_test_cmd('GET', $l->key()) === $tokenA, true), "\n";
    Fiber::suspend();
    echo "B lock after A's unlock: ", var_export($l->lock(), true), ", its own token: ", var_export($l->token() !== $tokenA, true), "\n";
    Fiber::suspend();
    echo "B unlock: ", var_export($l->unlock(), true), "\n";
});
$b->start();
echo "main flow token: ", var_export($l->token(), true), ", unlock while a Fiber holds: ";
try {
    $l->unlock();
} catch (RLockException $e) {
    echo get_class($e), "\n";
}
$a->resume();
$b->resume();
$a->resume();
$b->resume();
echo "nothing held: ", var_export(rlock_test_cmd('EXISTS', $l->key()), true), ", main flow unlock: ", var_export($l->unlock(), true), "\n";
?>
--EXPECT--
A lock: true
B tryLock: false, lock(200): false
B isAcquired: false, token: NULL, lost: false
B unlock: RLockException: Cannot unlock the lock "KEY" from this execution context: another one (the main flow, another Fiber or another Swoole coroutine) holds it through this object, and a hold belongs to the context that took it
B extend: RLockException: Cannot extend the lock "KEY" from this execution context: another one (the main flow, another Fiber or another Swoole coroutine) holds it through this object, and a hold belongs to the context that took it
A's hold untouched: true
main flow token: NULL, unlock while a Fiber holds: RLockException
A unlock: true
B lock after A's unlock: true, its own token: true
A token while B holds: NULL, isAcquired: false
B unlock: true
nothing held: 0, main flow unlock: false
