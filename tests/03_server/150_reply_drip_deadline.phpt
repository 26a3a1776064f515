--TEST--
A reply that comes a byte at a time (one every 150 ms, each read well within read_timeout) still ends the call at its deadline: lock(0) fails with "read timed out" within connect_timeout + read_timeout (+1 s of slack), not after the whole reply (3 s)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../fake_redis.inc';
// "+O", then one "K" every 150 ms for 3 s, then the end of the line
function drip(): Generator
{
    yield '+O';
    for ($i = 0; $i < 20; $i++) {
        usleep(150000);
        yield 'K';
    }
    yield "\r\n";
}
$fake = rlock_fake_redis(fn (array $argv, int $n) => drip());
$l = new RLock('k', ['server' => $fake['dsn'], 'connect_timeout' => 200, 'read_timeout' => 200, 'persistent' => false]);
$t = microtime(true);
try {
    var_dump($l->lock(0));
} catch (RLockException $e) {
    echo get_class($e), ': ', str_replace($fake['addr'], 'FAKE', $e->getMessage()), "\n";
}
$ms = (microtime(true) - $t) * 1000;
echo $ms < 200 + 200 + 1000 ? "within the deadline\n" : sprintf("took %.0f ms\n", $ms);
$fake['stop']();
?>
--EXPECT--
RLockConnectionException: Redis FAKE: read timed out
within the deadline
