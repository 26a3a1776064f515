--TEST--
RRateLimiter: tried without pause, a limit admits its burst plus one permit per limit/period of the server's clock (TIME read before the first try and after the last), never one more, with a period that limit does not divide (T = 50/3 ms)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$o = rlock_test_options();
function server_us(): int
{
    [$s, $us] = rlock_test_cmd('TIME');
    return (int) $s * 1000000 + (int) $us;
}
// 6 per 100 ms: a permit every 16666.67 us (under valgrind, 6 per second); burst 4
$period = 100 * $slow;
$l = new RRateLimiter('flood', 6, $period, $o + ['burst' => 4]);
$admitted = 0;
$first = server_us();
do {
    $admitted += $l->tryAcquire();
    $last = server_us();
} while ($last - $first < 7 * $period * 1000);
// the first admission came at $first or after, the last try at $last or before
$most = 4 + intdiv(($last - $first) * 6, $period * 1000);
echo $admitted <= $most ? "at most burst + span / T\n" : "too many: $admitted > $most\n";
// as many when the tries never pause; a loaded machine (valgrind) pauses them now and then, so
// fewer fail only when under half: the limit was not hammered
echo $admitted > intdiv($most, 2) ? "hammered\n" : "too few: $admitted of $most\n";
?>
--EXPECT--
at most burst + span / T
hammered
