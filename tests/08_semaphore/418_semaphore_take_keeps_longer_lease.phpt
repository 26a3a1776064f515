--TEST--
RSemaphore: more permits taken by a holder never shorten its lease (a compare, no ZADD GT: Redis 6.0)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['ttl' => 10000]);
$h = rlock_test_companion($o['prefix'] . 'lease', 'semaphore');
$s = new RSemaphore('lease', 3, $o);
$lease = function () use ($h) {
    foreach (array_chunk(rlock_test_cmd('ZRANGE', $h, '0', '-1', 'WITHSCORES'), 2) as [$m, $score]) {
        if ((float) $score > 0) {  // a lease; counts and markers score negative
            [$sec, $usec] = rlock_test_cmd('TIME');
            return (int) $score - ((int) $sec * 1000 + intdiv((int) $usec, 1000));
        }
    }
};
var_dump($s->acquire(1), $s->extend(60000));
var_dump($s->acquire(1), $lease() > 50000);   // 10 s would shorten it
var_dump($s->release(), $s->acquire(1), $lease() < 11000);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
