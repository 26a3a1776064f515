--TEST--
RRateLimiter::all(): the permits of several limits (per buyer and in all) taken together in one script, all or none: a refusal takes nothing from any, and each limiter's retryAfter() says when its own are due
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options();
$global = new RRateLimiter('{sale}all', 3, 60000, $o);
$buyer = fn (int $id) => new RRateLimiter("{sale}buyer:$id", 1, 60000, $o);
[$b1, $b2, $b3, $b4] = [$buyer(1), $buyer(2), $buyer(3), $buyer(4)];
var_dump(RRateLimiter::all([$b1, $global]));
$stored = array_map(fn ($k) => rlock_test_cmd('GET', rlock_test_companion($o['prefix'] . $k, 'rate')), ['{sale}all', '{sale}buyer:1']);
// buyer 1 again: refused by its own limit, and the global one keeps its permit
var_dump(RRateLimiter::all([$b1, $global]), $global->remaining(), $b1->retryAfter() > 0, $global->retryAfter());
var_dump($stored === array_map(fn ($k) => rlock_test_cmd('GET', rlock_test_companion($o['prefix'] . $k, 'rate')), ['{sale}all', '{sale}buyer:1']));
var_dump(RRateLimiter::all([$global, $b2]), RRateLimiter::all([$b3, $global]), $global->remaining());
// the global limit is spent: buyer 4 keeps its own permit
var_dump(RRateLimiter::all([$b4, $global]), $b4->remaining(), $b4->retryAfter(), $global->retryAfter() > 0);
// n permits of each
$x = new RRateLimiter('{t}x', 5, 60000, $o);
$y = new RRateLimiter('{t}y', 3, 60000, $o);
var_dump(RRateLimiter::all([$x, $y], 2), RRateLimiter::all([$x, $y], 2), $x->remaining(), $y->remaining());
// one limiter alone is tryAcquire()
var_dump(RRateLimiter::all([$y]), RRateLimiter::all([$y]));
?>
--EXPECT--
bool(true)
bool(false)
int(2)
bool(true)
int(0)
bool(true)
bool(true)
bool(true)
int(0)
bool(false)
int(1)
int(0)
bool(true)
bool(true)
bool(false)
int(3)
int(1)
bool(true)
bool(false)
