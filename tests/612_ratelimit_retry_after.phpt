--TEST--
RRateLimiter: retryAfter() is the ms until the refused permits are due, as the server counts them: not due a little before, due once that long has passed; 0 after an admission
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$o = rlock_test_options();
// one permit per 600 ms
$l = new RRateLimiter('pay', 1, 600, $o);
$t = hrtime(true);
var_dump($l->retryAfter(), $l->tryAcquire(), $l->retryAfter());
var_dump($l->tryAcquire());
$r = $l->retryAfter();
$since = (hrtime(true) - $t) / 1e6;
// due 600 ms after the admission: what is left of it at the refusal, rounded up
echo $r <= 600 && $r >= 600 - ceil($since) - 1 ? "600 ms less the time since the admission\n" : "retryAfter $r (after $since ms)\n";
// half of it later: still refused, about half left
usleep(intdiv($r, 2) * 1000);
var_dump($l->tryAcquire());
echo $l->retryAfter() > 0 && $l->retryAfter() <= $r - intdiv($r, 2) ? "what is left\n" : "retryAfter {$l->retryAfter()}\n";
// that long later: due
usleep($l->retryAfter() * 1000);
var_dump($l->tryAcquire(), $l->retryAfter());
// n permits: the retry is until all n are due (3 per 300 ms: 100 ms each)
$m = new RRateLimiter('batch', 3, 300, $o);
var_dump($m->tryAcquire(3), $m->tryAcquire(2));
echo $m->retryAfter() > 100 && $m->retryAfter() <= 200 ? "two permits: up to 200 ms\n" : "retryAfter {$m->retryAfter()}\n";
?>
--EXPECT--
int(0)
bool(true)
int(0)
bool(false)
600 ms less the time since the admission
bool(false)
what is left
bool(true)
int(0)
bool(true)
bool(false)
two permits: up to 200 ms
