--TEST--
RReadWriteLock: a blocked reader and a blocked writer do not poll: a 300 ms wait costs Redis a handful of commands
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
function commands(): int {
    preg_match_all('/^cmdstat_(?:evalsha|eval|blpop):calls=(\d+)/m', rlock_test_cmd('INFO', 'commandstats'), $m);
    return array_sum($m[1]);
}
$o = rlock_test_options(['retry_delay' => 10, 'reentrant' => false]);
$holder = new RReadWriteLock('stock', $o);
$rw = new RReadWriteLock('stock', $o);
foreach (['a reader behind a writer' => [$holder->writeLock(), $rw->readLock()], 'a writer behind a reader' => [$holder->readLock(), $rw->writeLock()]] as $what => [$held, $waiter]) {
    $held->lock();
    $before = commands();
    $r = $waiter->lock(300);
    $n = commands() - $before;
    echo "$what: ", json_encode($r), ", few commands: ", json_encode($n <= 6), $n > 6 ? " ($n)" : '', "\n";
    $held->unlock();
}
?>
--EXPECT--
a reader behind a writer: false, few commands: true
a writer behind a reader: false, few commands: true
