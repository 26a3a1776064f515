--TEST--
RRateLimiter: acquire() sleeps until the permits are due (not before: the server refuses the next at once; within a generous bound), fair or not; false at once, nothing taken, when they are not due within the wait
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$o = rlock_test_options();
foreach ([true, false] as $fair) {
    echo $fair ? "fair:\n" : "not fair:\n";
    // one permit per second
    $l = new RRateLimiter("pay-$fair", 1, 1000, $o + ['fair' => $fair]);
    var_dump($l->tryAcquire());
    // the clock read before the refusal: retryAfter() is what the server said then (no call
    // of its own), rounded up, so a wait until due takes at least retryAfter() - 1 from here
    $t = hrtime(true);
    var_dump($l->tryAcquire());
    $r = $l->retryAfter();
    var_dump($l->acquire(1, 5000));
    $took = (hrtime(true) - $t) / 1e6;
    echo $took >= $r - 1 ? "slept until due\n" : "woke early: $took ms of $r\n";
    echo $took <= $r + 1000 * $slow ? "not much later\n" : "woke late: $took ms of $r\n";
    // taken when due: the next is a whole period away
    var_dump($l->tryAcquire());
    // (had acquire() taken none, this tryAcquire() would, and retryAfter() be 0; 500 as the
    // refusal below needs anyway, not 800: a loaded machine's turn may pass in between)
    echo $l->retryAfter() > 500 ? "the next permit a second on\n" : "retryAfter {$l->retryAfter()}\n";
    // not due within 500 ms: false without waiting them out, nothing taken
    $t = hrtime(true);
    var_dump($l->acquire(1, 500));
    $took = (hrtime(true) - $t) / 1e6;
    echo $took < 500 ? "refused at once\n" : "took $took ms\n";
    echo $l->retryAfter() > 500 ? "retryAfter says when\n" : "retryAfter {$l->retryAfter()}\n";
    usleep($l->retryAfter() * 1000);
    var_dump($l->tryAcquire());
}
// the "wait" option is acquire()'s default wait
$w = new RRateLimiter('waits', 1, 200, $o + ['wait' => 3000]);
var_dump($w->acquire(), $w->acquire(), $w->acquire(1, 0));
?>
--EXPECT--
fair:
bool(true)
bool(false)
bool(true)
slept until due
not much later
bool(false)
the next permit a second on
bool(false)
refused at once
retryAfter says when
bool(true)
not fair:
bool(true)
bool(false)
bool(true)
slept until due
not much later
bool(false)
the next permit a second on
bool(false)
refused at once
retryAfter says when
bool(true)
bool(true)
bool(true)
bool(false)
