--TEST--
RLock::releaseAll() releases every hold the calling context took, through any object (locks and their nested holds, a read-write lock's side, a multi lock, semaphore permits), as the request's end would, and returns how many; the objects then hold nothing (no later release, at unlock(), destruct or request end, of what another took since); a Fiber's releaseAll() leaves the main flow's holds; auto_release off holds are let go unreleased
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['ttl' => 20000]);
$p = $o['prefix'];

$x = new RLock('x', $o);
$x->lock();
$x->lock();                                       // nested: one hold of x
(new RLock('x', $o))->lock();                     // reentrant through another object: still x
$y = new RLock('y', $o);
$y->lock();
$rw = new RReadWriteLock('doc', $o);
$rw->readLock()->lock();
$m = RLock::multi(['m1', 'm2'], $o);
$m->lock();
$sem = new RSemaphore('pool', 3, $o);
$sem->acquire(2);
$kept = new RLock('kept', ['auto_release' => false] + $o);
$kept->lock();
$keptToken = $kept->token();

echo "released: ", RLock::releaseAll(), "\n";
echo "keys left: ", json_encode(array_map(fn ($k) => str_replace($p, '', $k), rlock_test_cmd('KEYS', "$p*"))), "\n";
echo "permits free: ", $sem->available(), ", held: ", $sem->held(), "\n";
foreach (['x' => $x, 'y' => $y, 'read side' => $rw->readLock(), 'multi' => $m, 'kept' => $kept] as $name => $l) {
    echo "$name: isAcquired ", var_export($l->isAcquired(), true), ", token ", var_export($l->token(), true),
        ", unlock ", var_export($l->unlock(), true), ", lost ", var_export($l->lost(), true), "\n";
}
echo "semaphore release: ", var_export($sem->release(), true), "\n";
echo "again: ", RLock::releaseAll(), "\n";

// another takes x now: our objects' end must not release it
rlock_test_cmd('SET', "{$p}x", 'someone-else', 'PX', '20000');
unset($x);
echo "x after our object's end: ", rlock_test_cmd('GET', "{$p}x"), "\n";
rlock_test_cmd('DEL', "{$p}x");
echo "kept, released by its token: ", var_export(RLock::release('kept', $keptToken, $o), true), "\n";

// the objects work again afterwards
var_dump($y->lock(), $sem->acquire(), $y->unlock(), $sem->release());

// in a Fiber: the Fiber's holds only
$main = new RLock('main', $o);
$main->lock();
$f = new Fiber(function () use ($o) {
    $l = new RLock('fiber', $o);
    $l->lock();
    Fiber::suspend(RLock::releaseAll());
    return [$l->isAcquired(), $l->lock(), RLock::releaseAll()];
});
echo "a Fiber's releaseAll: ", $f->start(), ", the main flow's hold: ", var_export($main->isAcquired(), true),
    ", the Fiber's key: ", rlock_test_cmd('EXISTS', "{$p}fiber"), "\n";
$f->resume();
echo "in the Fiber afterwards: ", json_encode($f->getReturn()), "\n";
echo "main flow's releaseAll: ", RLock::releaseAll(), "\n";
?>
--EXPECT--
released: 5
keys left: ["kept"]
permits free: 3, held: 0
x: isAcquired false, token NULL, unlock false, lost false
y: isAcquired false, token NULL, unlock false, lost false
read side: isAcquired false, token NULL, unlock false, lost false
multi: isAcquired false, token NULL, unlock false, lost false
kept: isAcquired false, token NULL, unlock false, lost false
semaphore release: false
again: 0
x after our object's end: someone-else
kept, released by its token: true
bool(true)
bool(true)
bool(true)
bool(true)
a Fiber's releaseAll: 1, the main flow's hold: true, the Fiber's key: 0
in the Fiber afterwards: [false,true,1]
main flow's releaseAll: 1
