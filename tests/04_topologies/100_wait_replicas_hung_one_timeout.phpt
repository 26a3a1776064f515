--TEST--
sync_replicas: a WAIT that never answers fails the lock within read_timeout + 100 ms (an idle Redis's lateness; was 2 x read_timeout), and the lock is given back
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
require __DIR__ . '/../fake_redis.inc';
$slow = rlock_test_slow();
// SET takes the lock, WAIT never answers, the release script answers 1
$fake = rlock_fake_redis(['SET' => "+OK\r\n", 'WAIT' => null, 'EVALSHA' => ":1\r\n"]);

$l = new RLock('k', ['server' => $fake['dsn'], 'sync_replicas' => 1, 'connect_timeout' => 1000, 'read_timeout' => 1000]);
$t = microtime(true);
try {
    var_dump($l->lock());
} catch (RLockConnectionException $e) {
    echo get_class($e), ': ', str_replace((string) $fake['port'], 'PORT', $e->getMessage()), "\n";
}
$ms = (microtime(true) - $t) * 1000;
echo "within read_timeout + 100 ms: ", var_export($ms >= 950 && $ms < 1700 * $slow, true), "\n";
echo implode(' ', array_map(fn ($c) => $c[0], ($fake['commands'])())), "\n";
?>
--EXPECT--
RLockConnectionException: Redis 127.0.0.1:PORT: read timed out
within read_timeout + 100 ms: true
SET WAIT EVALSHA
