--TEST--
The largest value of each integer option works: read_timeout and connect_timeout at their maximum take a contended lock() to its wait, ttl's is the lease Redis keeps, wait's returns at once on a free key, sync_replicas' returns false after WAIT
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$max = 2147483647;

// before: read_timeout PHP_INT_MAX was taken, then every contended lock() threw
// "setsockopt(SO_RCVTIMEO): Numerical argument out of domain"
$l = new RLock('max-timeouts', rlock_test_options(['read_timeout' => $max, 'connect_timeout' => $max]));
rlock_test_cmd('SET', $l->key(), 'someone-else', 'PX', '20000');
var_dump($l->lock(100));
rlock_test_cmd('DEL', $l->key());

$l = new RLock('max-ttl', rlock_test_options(['ttl' => $max, 'wait' => $max, 'retry_delay' => $max]));
var_dump($l->lock());
$pttl = rlock_test_cmd('PTTL', $l->key());
var_dump($pttl > $max - 60000 && $pttl <= $max);
var_dump($l->extend($max), $l->unlock());

// a standalone server has no replica: WAIT gives up after read_timeout, and the lock is given back
$l = new RLock('max-replicas', rlock_test_options(['sync_replicas' => $max, 'read_timeout' => 100]));
var_dump($l->lock(), rlock_test_cmd('EXISTS', $l->key()));
?>
--EXPECT--
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
int(0)
