--TEST--
RReadWriteLock: a write acquire whose reply is lost (the connection drops) does not leave a phantom writer: the next lock() of the process gets in at once
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
require __DIR__ . '/../cut_relay.inc';
$srv = rlock_test_own_server();
// the write script's win, {1, token, fence}, never reaches the writer: the connection drops
$relay = rlock_cut_relay($srv['port'], fn (string $chunk) => str_starts_with($chunk, "*3\r\n:1\r\n\$32\r\n") ? 0 : null);
$o = ['prefix' => 'cut:', 'ttl' => 60000, 'retry_delay' => 20];
$reader = new RReadWriteLock('stock', ['server' => $srv['dsn']] + $o);
$writer = (new RReadWriteLock('stock', ['server' => $relay['dsn']] + $o))->writeLock();
var_dump($reader->readLock()->lock());
// a wait on the relayed connection: the relay cuts only a connection that has sent a BLPOP
var_dump($writer->lock(100));
var_dump($reader->readLock()->unlock());
try {
    $writer->tryLock();
    echo "no exception\n";
} catch (RLockConnectionException $e) {
    echo "lost: ", get_class($e), "\n";
}
var_dump(($relay['cut'])());
echo "Redis took it all the same: ", json_encode(($srv['cmd'])('EXISTS', '}{cut:stock}:write') === 1), "\n";
// the same process' next lock() is the one Redis let in (before: a wait for the lease, 60 s)
var_dump($writer->lock(3000));
var_dump($writer->isAcquired(), $writer->ttl() > 50000);
var_dump($writer->unlock());
echo "a reader after it: ", json_encode($reader->readLock()->tryLock()), "\n";
echo "the write side left: ", ($srv['cmd'])('EXISTS', '}{cut:stock}:write'), "\n";
?>
--EXPECT--
bool(true)
bool(false)
bool(true)
lost: RLockConnectionException
bool(true)
Redis took it all the same: true
bool(true)
bool(true)
bool(true)
bool(true)
a reader after it: true
the write side left: 0
