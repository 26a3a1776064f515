--TEST--
RReadWriteLock: a waiting writer SIGKILLed in the queue, handed the lock by the last reader's unlock, keeps new readers out a second at most, not for a lease
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
var_dump($rw->readLock()->lock());
$writers = rlock_test_companion($o['prefix'] . 'stock', 'writers');

$pid = pcntl_fork();
if ($pid === 0) {
    (new RReadWriteLock('stock', $o))->writeLock()->lock(60000);
    exit(0);
}
// the writer marks itself waiting and blocks, then dies there
$deadline = microtime(true) + 10 * $slow;
while (rlock_test_cmd('ZCARD', $writers) !== 1 || !preg_match('/^blocked_clients:1/m', rlock_test_cmd('INFO', 'clients'))) {
    if (microtime(true) > $deadline) {
        die("the writer never waited\n");
    }
    usleep(5000);
}
exec("kill -KILL $pid");
pcntl_waitpid($pid, $status);
echo "killed: ", json_encode(pcntl_wifsignaled($status)), "\n";
while (preg_match('/^blocked_clients:1/m', rlock_test_cmd('INFO', 'clients'))) {
    usleep(5000);  // Redis saw its connection close
}
// the last reader out hands the lock to the dead writer, whose mark still lives
$t0 = microtime(true);
var_dump($rw->readLock()->unlock());
echo "a reader now: ", json_encode($rw->readLock()->tryLock()), "\n";
// in once the grant nobody took ends: a second (before: the whole 60 s lease)
$late = new RReadWriteLock('stock', $o);
echo "a reader waiting: ", json_encode($late->readLock()->lock(20000 * $slow)), "\n";
$ms = (microtime(true) - $t0) * 1000;
echo "within 3 s of the unlock: ", json_encode($ms < 3000 * $slow), $ms < 3000 * $slow ? '' : " ($ms ms)", "\n";
var_dump($late->readLock()->unlock());
echo "a writer after it: ", json_encode($late->writeLock()->tryLock()), "\n";
?>
--EXPECT--
bool(true)
killed: true
bool(true)
a reader now: false
a reader waiting: true
within 3 s of the unlock: true
bool(true)
a writer after it: true
