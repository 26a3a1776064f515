--TEST--
RReadWriteLock: a waiting writer that died stops keeping readers out when its mark ends; a waiting reader gets in then by itself
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options();
$rw = new RReadWriteLock('stock', $o);
// a writer's waiting mark whose writer is gone: it ends 2 s from now by the server's clock
// (the refusal meanwhile is this process' first call, connect and script load included)
[$s, $us] = rlock_test_cmd('TIME');
$writers = rlock_test_companion($o['prefix'] . 'stock', 'writers');
rlock_test_cmd('ZADD', $writers, (string) ((int) $s * 1000 + intdiv((int) $us, 1000) + 2000), str_repeat('ab', 16));
echo "a reader meanwhile: ", json_encode($rw->readLock()->tryLock()), "\n";
$t0 = microtime(true);
echo "a reader waiting up to 5 s: ", json_encode($rw->readLock()->lock(5000)), "\n";
echo "in before 5 s: ", json_encode(microtime(true) - $t0 < 4.5), "\n";
echo "the mark purged: ", rlock_test_cmd('EXISTS', $writers), "\n";
?>
--EXPECT--
a reader meanwhile: false
a reader waiting up to 5 s: true
in before 5 s: true
the mark purged: 0
