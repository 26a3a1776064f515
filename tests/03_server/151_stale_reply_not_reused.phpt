--TEST--
Bytes left in the reader after a reply (SET answered "+OK" and a stray ":0" in one write) are never taken for the next command's answer: the pooled connection is not reused, unlock() sends its release on a new one and gets the real answer
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../fake_redis.inc';
// every SET answered with two replies in one write: its +OK, then a stray :0
$fake = rlock_fake_redis(fn (array $argv, int $n) => strtoupper($argv[0]) == 'SET' ? "+OK\r\n:0\r\n" : ":1\r\n");
foreach ([true, false] as $persistent) {
    $l = new RLock('k' . (int) $persistent, ['server' => $fake['dsn'], 'read_timeout' => 2000, 'persistent' => $persistent]);
    var_dump($l->lock(0));
    var_dump($l->unlock());
    echo implode(' ', array_map(fn ($c) => $c[0], ($fake['commands'])())), "\n";
}
$fake['stop']();
?>
--EXPECT--
bool(true)
bool(true)
SET EVALSHA
bool(true)
bool(true)
SET EVALSHA SET EVALSHA
