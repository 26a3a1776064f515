--TEST--
RRateLimiter: reset() forgets every permit taken of the limit (whoever took them): the whole burst is free again, the limit's key is gone, retryAfter() is 0
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options();
$a = new RRateLimiter('sms', 2, 60000, $o);
$b = new RRateLimiter('sms', 2, 60000, $o);
var_dump($a->tryAcquire(2), $b->tryAcquire(), $b->retryAfter() > 0);
$b->reset();
var_dump($b->retryAfter(), rlock_test_cmd('KEYS', '*' . $o['prefix'] . '*'), $a->remaining(), $a->tryAcquire(2));
// a reset of a limit nobody used does nothing
(new RRateLimiter('unused', 1, 1000, $o))->reset();
echo "done\n";
?>
--EXPECT--
bool(true)
bool(false)
bool(true)
int(0)
array(0) {
}
int(2)
bool(true)
done
