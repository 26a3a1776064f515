--TEST--
RRateLimiter: objects that name one limit with different rates (a rolling deploy) share its one key: each decides by its own rate over what all took, nothing throws, no count wraps
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$o = rlock_test_options();
$period = 1000 * $slow;
$old = new RRateLimiter('api', 3, $period, $o);   // 333.33 ms a permit (more under valgrind)
$new = new RRateLimiter('api', 7, $period, $o);   // 142.86 ms a permit
var_dump($old->tryAcquire(3));
// the old rate's three took its whole second: by the new rate, one more is due 142.86 ms on
var_dump($new->tryAcquire(), $new->remaining());
echo $new->retryAfter() > 0 && $new->retryAfter() <= ceil($period / 7) ? "due by the new rate\n" : "retryAfter {$new->retryAfter()}\n";
usleep($new->retryAfter() * 1000);
var_dump($new->tryAcquire(), $old->tryAcquire(), $old->retryAfter() > 0);
?>
--EXPECT--
bool(true)
bool(false)
int(0)
due by the new rate
bool(true)
bool(false)
bool(true)
