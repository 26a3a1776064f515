--TEST--
Fibers: a hold belongs to the context that took it. Two Fibers of one process on one key exclude each other as two processes do (tryLock() false, lock() with a wait waits and gives up), the main flow and a Fiber too; reentrancy holds within one Fiber, released at its outermost unlock
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['ttl' => 20000]);

// Fiber A holds "k", suspended; Fiber B, with an object of its own, finds it taken
$a = new Fiber(function () use ($o) {
    $l = new RLock('k', $o);
    Fiber::suspend($l->lock());
    // reentrant within A: the same token, one Redis key, released at the outermost unlock
    $token = $l->token();
    $inner = new RLock('k', $o);
    echo "A again: ", var_export($inner->tryLock(), true), ", same token: ", var_export($inner->token() === $token, true), "\n";
    echo "A inner unlock: ", var_export($inner->unlock(), true), ", still held: ",
        var_export(rlock_test_cmd('GET', $l->key()) === $token, true), "\n";
    echo "A outer unlock: ", var_export($l->unlock(), true), ", key: ", var_export(rlock_test_cmd('EXISTS', $l->key()), true), "\n";
});
echo "A lock: ", var_export($a->start(), true), "\n";
$b = new Fiber(function () use ($o) {
    $l = new RLock('k', $o);
    echo "B tryLock: ", var_export($l->tryLock(), true), "\n";
    echo "B lock(300): ", var_export($l->lock(300), true), "\n";
    echo "B token: ", var_export($l->token(), true), "\n";
});
$b->start();
$a->resume();

// the main flow and a Fiber: the same, both ways
$main = new RLock('m', $o);
var_dump($main->lock());
$f = new Fiber(fn () => (new RLock('m', $o))->tryLock());
$f->start();
echo "Fiber while the main flow holds: ", var_export($f->getReturn(), true), "\n";
$main->unlock();
$g = new Fiber(function () use ($o) {
    $l = new RLock('m', $o);
    Fiber::suspend($l->lock());
    $l->unlock();
});
$g->start();
echo "main flow while a Fiber holds: ", var_export((new RLock('m', $o))->tryLock(), true), "\n";
$g->resume();
echo "after the Fiber's unlock: ", var_export((new RLock('m', $o))->tryLock(), true), "\n";
?>
--EXPECT--
A lock: true
B tryLock: false
B lock(300): false
B token: NULL
A again: true, same token: true
A inner unlock: true, still held: true
A outer unlock: true, key: 0
bool(true)
Fiber while the main flow holds: false
main flow while a Fiber holds: false
after the Fiber's unlock: true
