--TEST--
Fibers: RReadWriteLock's sides are held per execution context. A Fiber holding the write side keeps another Fiber's writer and readers out (the same side objects, handed to both), while its own reader gets in past its own writer; readers in two Fibers share
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['ttl' => 20000]);
$rw = new RReadWriteLock('doc', $o);

$a = new Fiber(function () use ($rw) {
    Fiber::suspend($rw->writeLock()->lock());
    echo "A reads past its own writer: ", var_export($rw->readLock()->tryLock(), true), "\n";
    $rw->readLock()->unlock();
    $rw->writeLock()->unlock();
});
echo "A write: ", var_export($a->start(), true), "\n";
$b = new Fiber(fn () => [$rw->writeLock()->tryLock(), $rw->readLock()->tryLock(), $rw->readLock()->lock(200)]);
$b->start();
echo "B write, read, read(200) while A writes: ", json_encode($b->getReturn()), "\n";
echo "main flow read while A writes: ", var_export($rw->readLock()->tryLock(), true), "\n";
$a->resume();

$readers = [];
foreach (['C', 'D'] as $name) {
    $readers[$name] = new Fiber(function () use ($rw) { Fiber::suspend($rw->readLock()->lock()); $rw->readLock()->unlock(); });
    echo "$name read: ", var_export($readers[$name]->start(), true), "\n";
}
$e = new Fiber(fn () => $rw->writeLock()->tryLock());
$e->start();
echo "E write while C and D read: ", var_export($e->getReturn(), true), "\n";
foreach ($readers as $f) {
    $f->resume();
}
echo "main flow write after them: ", var_export($rw->writeLock()->tryLock(), true), "\n";
?>
--EXPECT--
A write: true
B write, read, read(200) while A writes: [false,false,false]
main flow read while A writes: false
A reads past its own writer: true
C read: true
D read: true
E write while C and D read: false
main flow write after them: true
