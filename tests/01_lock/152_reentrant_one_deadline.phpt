--TEST--
A reentrant lock() is one call with one deadline: its extend and the acquire after it (the hold was not ours any more) share connect_timeout + read_timeout, instead of each taking a full one
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../fake_redis.inc';
// the first SET takes the lock; then every command is answered after 3 s, each within
// read_timeout (4 s): the extend with 0 (not ours), the SET after it with OK (sent 1.1 s
// before the deadline: room for a loaded machine, or valgrind, between the two)
function late(string $reply): Generator
{
    usleep(3000000);
    yield $reply;
}
$fake = rlock_fake_redis(fn (array $argv, int $n) => $n == 0 ? "+OK\r\n"
    : late(strtoupper($argv[0]) == 'SET' ? "+OK\r\n" : ":0\r\n"));
$l = new RLock('k', ['server' => $fake['dsn'], 'connect_timeout' => 100, 'read_timeout' => 4000,
    'persistent' => false, 'reentrant' => true]);
var_dump($l->lock(0));
$t = microtime(true);
try {
    var_dump($l->lock(0));
} catch (RLockException $e) {
    echo get_class($e), ': ', str_replace($fake['addr'], 'FAKE', $e->getMessage()), "\n";
}
$ms = (microtime(true) - $t) * 1000;
// two replies of 3 s each: 6 s before; one deadline of 4.1 s now
echo $ms < 100 + 4000 + 1000 ? "within one deadline\n" : sprintf("took %.0f ms\n", $ms);
echo implode(' ', array_map(fn ($c) => $c[0], ($fake['commands'])())), "\n";
$fake['stop']();
?>
--EXPECT--
bool(true)
RLockConnectionException: Redis FAKE: read timed out
within one deadline
SET EVALSHA SET
