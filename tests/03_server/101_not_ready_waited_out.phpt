--TEST--
LOADING, MASTERDOWN and TRYAGAIN are waited out (retry_delay) within the call's deadline, not thrown at once; past the deadline the reply is the error
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
require __DIR__ . '/../fake_redis.inc';
$slow = rlock_test_slow();
$errors = [
    'LOADING' => 'LOADING Redis is loading the dataset in memory',
    'MASTERDOWN' => "MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.",
    'TRYAGAIN' => 'TRYAGAIN Multiple keys request during rehashing of slot',
];
foreach ($errors as $word => $error) {
    // not ready for its first 3 commands, then a Redis that grants and releases
    $fake = rlock_fake_redis(fn (array $argv, int $n) => $n < 3 ? "-$error\r\n"
        : (strtoupper($argv[0]) === 'SET' ? "+OK\r\n" : ":1\r\n"));
    $l = new RLock('k', ['server' => $fake['dsn'], 'retry_delay' => 20]);
    try {
        echo "$word: lock ", var_export($l->lock(), true), ", unlock ", var_export($l->unlock(), true), "\n";
    } catch (RLockException $e) {
        echo "$word: ", get_class($e), ': ', $e->getMessage(), "\n";
    }
    echo "  commands: ", implode(' ', array_map(fn ($c) => $c[0], ($fake['commands'])())), "\n";
    ($fake['stop'])();
}

// never ready: the error, once the call's deadline (connect_timeout + read_timeout) is near
$fake = rlock_fake_redis(fn () => "-{$errors['LOADING']}\r\n");
$l = new RLock('k', ['server' => $fake['dsn'], 'retry_delay' => 20, 'connect_timeout' => 200, 'read_timeout' => 300]);
$t = microtime(true);
try {
    $l->lock();
    echo "no exception\n";
} catch (RLockException $e) {
    $ms = (microtime(true) - $t) * 1000;
    echo get_class($e), ': ', str_replace((string) $fake['port'], 'PORT', $e->getMessage()), "\n";
    echo "waited, within its deadline: ", var_export($ms >= 300 && $ms < 1000 * $slow, true), "\n";
}
?>
--EXPECT--
LOADING: lock true, unlock true
  commands: SET SET SET SET EVALSHA
MASTERDOWN: lock true, unlock true
  commands: SET SET SET SET EVALSHA
TRYAGAIN: lock true, unlock true
  commands: SET SET SET SET EVALSHA
RLockException: Redis 127.0.0.1:PORT: LOADING Redis is loading the dataset in memory
waited, within its deadline: true
