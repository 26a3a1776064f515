--TEST--
RReadWriteLock: a read acquire whose reply is lost (the connection drops) does not leave a phantom reader keeping writers out: the next lock() of the process is that reader
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
require __DIR__ . '/../cut_relay.inc';
$srv = rlock_test_own_server();
// the read script's win, {1, token, fence}, never reaches the reader: the connection drops
$relay = rlock_cut_relay($srv['port'], fn (string $chunk) => str_starts_with($chunk, "*3\r\n:1\r\n\$32\r\n") ? 0 : null);
$o = ['prefix' => 'cut:', 'ttl' => 60000, 'retry_delay' => 20];
$writer = new RReadWriteLock('stock', ['server' => $srv['dsn']] + $o);
$reader = (new RReadWriteLock('stock', ['server' => $relay['dsn']] + $o))->readLock();
var_dump($writer->writeLock()->lock());
// a wait on the relayed connection: the relay cuts only a connection that has sent a BLPOP
var_dump($reader->lock(100));
var_dump($writer->writeLock()->unlock());
try {
    $reader->tryLock();
    echo "no exception\n";
} catch (RLockConnectionException $e) {
    echo "lost: ", get_class($e), "\n";
}
var_dump(($relay['cut'])());
echo "readers in Redis: ", ($srv['cmd'])('ZCARD', '}{cut:stock}:read'), "\n";
var_dump($reader->lock(3000));
echo "readers in Redis: ", ($srv['cmd'])('ZCARD', '}{cut:stock}:read'), "\n";
var_dump($reader->unlock());
// no reader is left in (before: the lost one, for its lease of 60 s)
echo "a writer after it: ", json_encode($writer->writeLock()->tryLock()), "\n";
?>
--EXPECT--
bool(true)
bool(false)
bool(true)
lost: RLockConnectionException
bool(true)
readers in Redis: 1
bool(true)
readers in Redis: 1
bool(true)
a writer after it: true
