--TEST--
RReadWriteLock: a waiting reader SIGKILLed in the queue, let in by the writer's unlock, keeps writers out a second at most, not for a lease
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$o = rlock_test_options(['ttl' => 60000]);
$rw = new RReadWriteLock('stock', $o);
var_dump($rw->writeLock()->lock());
$readers = rlock_test_companion($o['prefix'] . 'stock', 'readers');

$pid = pcntl_fork();
if ($pid === 0) {
    (new RReadWriteLock('stock', $o))->readLock()->lock(60000);
    exit(0);
}
// the reader marks itself waiting and blocks, then dies there
$deadline = microtime(true) + 10 * $slow;
while (rlock_test_cmd('ZCARD', $readers) !== 1 || !preg_match('/^blocked_clients:1/m', rlock_test_cmd('INFO', 'clients'))) {
    if (microtime(true) > $deadline) {
        die("the reader never waited\n");
    }
    usleep(5000);
}
exec("kill -KILL $pid");
pcntl_waitpid($pid, $status);
echo "killed: ", json_encode(pcntl_wifsignaled($status)), "\n";
while (preg_match('/^blocked_clients:1/m', rlock_test_cmd('INFO', 'clients'))) {
    usleep(5000);  // Redis saw its connection close
}
// the writer's unlock lets every waiting reader in, the dead one too
$t0 = microtime(true);
var_dump($rw->writeLock()->unlock());
echo "readers in: ", rlock_test_cmd('ZCARD', rlock_test_companion($rw->readLock()->key(), 'read')), "\n";
echo "a writer now: ", json_encode($rw->writeLock()->tryLock()), "\n";
// in once the dead reader's place ends: a second (before: the writer's whole 60 s lease)
$late = new RReadWriteLock('stock', $o);
echo "a writer waiting: ", json_encode($late->writeLock()->lock(20000 * $slow)), "\n";
$ms = (microtime(true) - $t0) * 1000;
echo "within 3 s of the unlock: ", json_encode($ms < 3000 * $slow), $ms < 3000 * $slow ? '' : " ($ms ms)", "\n";
var_dump($late->writeLock()->unlock());
echo "a reader after it: ", json_encode($late->readLock()->tryLock()), "\n";
?>
--EXPECT--
bool(true)
killed: true
bool(true)
readers in: 1
a writer now: false
a writer waiting: true
within 3 s of the unlock: true
bool(true)
a reader after it: true
