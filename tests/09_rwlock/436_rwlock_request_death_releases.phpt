--TEST--
RReadWriteLock: a request that dies (fatal error) holding both sides releases both at its end, at once
--EXTENSIONS--
rlock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
if (!is_file(ini_get('extension_dir') . '/rlock.so')) die('skip rlock.so not in extension_dir');
?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['ttl' => 30000]);
$code = '$rw = new RReadWriteLock("stock", ' . var_export($o, true) . ');
if (!$rw->writeLock()->lock() || !$rw->readLock()->lock()) { exit(3); }
$other = new RReadWriteLock("other", ' . var_export($o, true) . ');
if (!$other->readLock()->lock()) { exit(3); }
echo "locked\n";
undefined_function();';
$cmd = [PHP_BINARY, '-n', '-d', 'extension_dir=' . ini_get('extension_dir'), '-d', 'extension=rlock',
    '-d', 'display_errors=stderr', '-d', 'log_errors=0', '-r', $code];
$proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
$out = stream_get_contents($pipes[1]);
$err = stream_get_contents($pipes[2]);
proc_close($proc);
echo $out, str_contains($err, 'Call to undefined function') ? "fatal error\n" : $err;
$rw = new RReadWriteLock('stock', $o);
$other = new RReadWriteLock('other', $o);
echo "write side free: ", json_encode($rw->writeLock()->tryLock()), "\n";
echo "the other lock's write side free: ", json_encode($other->writeLock()->tryLock()), "\n";
echo "readers left: ", rlock_test_cmd('EXISTS', rlock_test_companion($rw->readLock()->key(), 'read'), rlock_test_companion($other->readLock()->key(), 'read')), "\n";
?>
--EXPECT--
locked
fatal error
write side free: true
the other lock's write side free: true
readers left: 0
