--TEST--
RReadWriteLock: phpinfo()'s counters count its acquires, the ones that waited, and the timeouts
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../watchdog.inc';
$o = rlock_test_options(['reentrant' => false]);
$before = array_map('rlock_test_info', ['acquired' => 'Locks acquired', 'waited' => 'Acquires that waited', 'timeouts' => 'Waits that timed out']);
[$a, $b] = [new RReadWriteLock('stock', $o), new RReadWriteLock('stock', $o)];
$a->readLock()->lock(1000);      // acquired at once
$b->readLock()->lock(1000);      // shared: at once
$b->writeLock()->lock(50);       // waited, timed out
$after = array_map('rlock_test_info', ['acquired' => 'Locks acquired', 'waited' => 'Acquires that waited', 'timeouts' => 'Waits that timed out']);
foreach ($after as $k => $v) {
    echo "$k: +", $v - $before[$k], "\n";
}
?>
--EXPECT--
acquired: +2
waited: +1
timeouts: +1
