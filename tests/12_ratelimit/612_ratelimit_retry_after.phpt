--TEST--
RRateLimiter: retryAfter() is the ms until the refused permits are due, as the server counts them: not due a little before, due once that long has passed; 0 after an admission
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options();
// one permit per 2 s (half of it is the room for a loaded machine's turn below)
$l = new RRateLimiter('pay', 1, 2000, $o);
$t = hrtime(true);
var_dump($l->retryAfter(), $l->tryAcquire(), $l->retryAfter());
var_dump($l->tryAcquire());
$r = $l->retryAfter();
$since = (hrtime(true) - $t) / 1e6;
// due 2000 ms after the admission: what is left of it at the refusal, rounded up
echo $r <= 2000 && $r >= 2000 - ceil($since) - 1 ? "2000 ms less the time since the admission\n" : "retryAfter $r (after $since ms)\n";
// half of it later: still refused, about half left
usleep(intdiv($r, 2) * 1000);
var_dump($l->tryAcquire());
echo $l->retryAfter() > 0 && $l->retryAfter() <= $r - intdiv($r, 2) ? "what is left\n" : "retryAfter {$l->retryAfter()}\n";
// that long later: due
usleep($l->retryAfter() * 1000);
var_dump($l->tryAcquire(), $l->retryAfter());
// n permits: the retry is until all n are due (3 per 3000 ms: 1000 ms each), 2000 ms after
// the admission less the time since, as above
$m = new RRateLimiter('batch', 3, 3000, $o);
$t = hrtime(true);
var_dump($m->tryAcquire(3), $m->tryAcquire(2));
$r = $m->retryAfter();
$since = (hrtime(true) - $t) / 1e6;
echo $r <= 2000 && $r >= 2000 - ceil($since) - 1 ? "two permits: up to 2000 ms\n" : "retryAfter $r (after $since ms)\n";
?>
--EXPECT--
int(0)
bool(true)
int(0)
bool(false)
2000 ms less the time since the admission
bool(false)
what is left
bool(true)
int(0)
bool(true)
bool(false)
two permits: up to 2000 ms
