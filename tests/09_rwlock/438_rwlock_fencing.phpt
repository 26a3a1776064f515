--TEST--
RReadWriteLock: with "fencing", each writer's token is above the last; a reader's is the last writer's
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['fencing' => true]);
$rw = new RReadWriteLock('stock', $o);
$w = $rw->writeLock();
$tokens = [];
for ($i = 0; $i < 3; $i++) {
    $w->lock();
    $tokens[] = $w->fencingToken();
    $w->unlock();
}
echo "increasing: ", json_encode($tokens[0] > 0 && $tokens[0] < $tokens[1] && $tokens[1] < $tokens[2]), "\n";
$r = $rw->readLock();
var_dump($r->tryLock(), $r->fencingToken() === $tokens[2], $w->fencingToken());
$r->unlock();
$plain = new RReadWriteLock('stock', rlock_test_options());
var_dump($plain->writeLock()->tryLock(), $plain->writeLock()->fencingToken());
$plain->writeLock()->unlock();
var_dump($w->lock(), $w->fencingToken() > $tokens[2]);
?>
--EXPECT--
increasing: true
bool(true)
bool(true)
NULL
bool(true)
NULL
bool(true)
bool(true)
