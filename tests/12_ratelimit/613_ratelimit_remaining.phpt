--TEST--
RRateLimiter: remaining() is the permits that would be admitted now, asked of Redis (burst at first, less what was taken, exact with a period that limit does not divide); it takes nothing
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options();
// 7 per minute (8571.43 ms each), burst 5
$l = new RRateLimiter('api', 7, 60000, $o + ['burst' => 5]);
var_dump($l->remaining(), $l->remaining());
var_dump($l->tryAcquire(2), $l->remaining());
var_dump($l->tryAcquire(3), $l->remaining());
var_dump($l->tryAcquire(), $l->remaining());
// the longest period: 999 per 2147483647 ms (a permit every 2149633.28 ms), the largest burst it takes
$m = new RRateLimiter('wide', 999, 2147483647, $o + ['burst' => 999]);
var_dump($m->remaining(), $m->tryAcquire(998), $m->remaining(), $m->tryAcquire(), $m->remaining(), $m->tryAcquire());
// the densest: 2147483647 per day, all at once (a permit every 40.2 us)
$z = new RRateLimiter('dense', 2147483647, 86400000, $o + ['burst' => 2147483647]);
var_dump($z->tryAcquire(2147483647), $z->tryAcquire(2147483647), $z->remaining() < 100000);
?>
--EXPECT--
int(5)
int(5)
bool(true)
int(3)
bool(true)
int(0)
bool(false)
int(0)
int(999)
bool(true)
int(1)
bool(true)
int(0)
bool(false)
bool(true)
bool(false)
bool(true)
