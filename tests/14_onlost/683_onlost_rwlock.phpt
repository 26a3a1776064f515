--TEST--
RReadWriteLock::onLost(): $fn($side) for a hold of either side found lost, sides made before or after the call; null takes it off both sides
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../onlost.inc';
$o = rlock_test_options(['ttl' => 300 * rlock_test_slow(), 'watchdog' => true]);
$rw = new RReadWriteLock('stock', $o);
$read = $rw->readLock();  // made before onLost(), the write side after
var_dump($rw->onLost(function (RLock $side) use ($rw) {
    $GLOBALS['lost'][] = $side === $rw->writeLock() ? 'write' : ($side === $rw->readLock() ? 'read' : 'another');
}) === $rw);
$companions = [rlock_test_companion($rw->writeLock()->key(), 'write'), rlock_test_companion($read->key(), 'read')];

var_dump($rw->writeLock()->lock());
rlock_test_cmd('DEL', $rw->writeLock()->key(), ...$companions);
var_dump(rlock_test_spin(1), $rw->writeLock()->unlock());

var_dump($read->lock());
rlock_test_cmd('DEL', ...$companions);
var_dump(rlock_test_spin(2), $read->unlock());

// no callback any more: the loss is found (lost()) and nothing runs
$rw->onLost(null);
var_dump($read->lock());
rlock_test_cmd('DEL', ...$companions);
$deadline = hrtime(true) + 5e9 * rlock_test_slow();
while (!$read->lost() && hrtime(true) < $deadline) {
    usleep(10000);
}
var_dump($read->lost(), $GLOBALS['lost']);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
array(2) {
  [0]=>
  string(5) "write"
  [1]=>
  string(4) "read"
}
