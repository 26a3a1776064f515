--TEST--
RRateLimiter: bad input is a ValueError or TypeError naming the parameter or option, PHP_INT_MAX and other absurd values included (never a wrapped count, a crash or a hang); values at the limits work
--EXTENSIONS--
rlock
--FILE--
<?php
$o = ['server' => 'redis://127.0.0.1:1'];
$tries = [
    'empty name' => fn () => new RRateLimiter('', 1, 1000, $o),
    'limit 0' => fn () => new RRateLimiter('l', 0, 1000, $o),
    'limit -1' => fn () => new RRateLimiter('l', -1, 1000, $o),
    'limit PHP_INT_MAX' => fn () => new RRateLimiter('l', PHP_INT_MAX, 1000, $o),
    'period 0' => fn () => new RRateLimiter('l', 1, 0, $o),
    'period PHP_INT_MIN' => fn () => new RRateLimiter('l', 1, PHP_INT_MIN, $o),
    'period PHP_INT_MAX' => fn () => new RRateLimiter('l', 1, PHP_INT_MAX, $o),
    'limit "ten"' => fn () => new RRateLimiter('l', 'ten', 1000, $o),
    'burst 0' => fn () => new RRateLimiter('l', 10, 1000, $o + ['burst' => 0]),
    'burst PHP_INT_MAX' => fn () => new RRateLimiter('l', 10, 1000, $o + ['burst' => PHP_INT_MAX]),
    'burst past what refills in 24.8 days' => fn () => new RRateLimiter('l', 1, 2147483647, $o + ['burst' => 2]),
    'burst "many"' => fn () => new RRateLimiter('l', 10, 1000, $o + ['burst' => 'many']),
    'burst 1.5' => fn () => new RRateLimiter('l', 10, 1000, $o + ['burst' => 1.5]),
    'burst null' => fn () => new RRateLimiter('l', 10, 1000, $o + ['burst' => null]),
    'unknown option' => fn () => new RRateLimiter('l', 10, 1000, $o + ['bursts' => 3]),
    'wait -1 (option)' => fn () => new RRateLimiter('l', 10, 1000, $o + ['wait' => -1]),
    'tryAcquire(0)' => fn () => (new RRateLimiter('l', 10, 1000, $o))->tryAcquire(0),
    'tryAcquire(burst + 1)' => fn () => (new RRateLimiter('l', 10, 1000, $o + ['burst' => 4]))->tryAcquire(5),
    'tryAcquire(PHP_INT_MAX)' => fn () => (new RRateLimiter('l', 10, 1000, $o))->tryAcquire(PHP_INT_MAX),
    'acquire(-1)' => fn () => (new RRateLimiter('l', 10, 1000, $o))->acquire(-1),
    'acquire(1, -1)' => fn () => (new RRateLimiter('l', 10, 1000, $o))->acquire(1, -1),
    'acquire(1, PHP_INT_MAX)' => fn () => (new RRateLimiter('l', 10, 1000, $o))->acquire(1, PHP_INT_MAX),
];
foreach ($tries as $what => $try) {
    try {
        $try();
        echo "$what: no error\n";
    } catch (Throwable $e) {
        echo "$what: ", get_class($e), ': ', $e->getMessage(), "\n";
    }
}
// at the limits: made (nothing is sent to Redis until used)
$l = new RRateLimiter('l', 2147483647, 100, $o + ['burst' => 2147483647]);
$l = new RRateLimiter('l', 1, 2147483647, $o + ['burst' => 1]);
$l = new RRateLimiter('l', 10, 1000, $o + ['burst' => '7']);
var_dump($l);
echo "done\n";
?>
--EXPECTF--
empty name: ValueError: RRateLimiter::__construct(): Argument #1 ($name) must not be empty
limit 0: ValueError: RRateLimiter::__construct(): Argument #2 ($limit) must be between 1 and 2147483647 (permits per period)
limit -1: ValueError: RRateLimiter::__construct(): Argument #2 ($limit) must be between 1 and 2147483647 (permits per period)
limit PHP_INT_MAX: ValueError: RRateLimiter::__construct(): Argument #2 ($limit) must be between 1 and 2147483647 (permits per period)
period 0: ValueError: RRateLimiter::__construct(): Argument #3 ($periodMs) must be between 100 and 2147483647 (milliseconds)
period PHP_INT_MIN: ValueError: RRateLimiter::__construct(): Argument #3 ($periodMs) must be between 100 and 2147483647 (milliseconds)
period PHP_INT_MAX: ValueError: RRateLimiter::__construct(): Argument #3 ($periodMs) must be between 100 and 2147483647 (milliseconds)
limit "ten": TypeError: RRateLimiter::__construct(): Argument #2 ($limit) must be of type int, string given
burst 0: ValueError: RRateLimiter::__construct(): Argument #4 ($options) option "burst" must be between 1 and 21474836 (the permits taken at once; at most what refills in 2147483647 ms)
burst PHP_INT_MAX: ValueError: RRateLimiter::__construct(): Argument #4 ($options) option "burst" must be between 1 and 21474836 (the permits taken at once; at most what refills in 2147483647 ms)
burst past what refills in 24.8 days: ValueError: RRateLimiter::__construct(): Argument #4 ($options) option "burst" must be between 1 and 1 (the permits taken at once; at most what refills in 2147483647 ms)
burst "many": TypeError: RRateLimiter::__construct(): Argument #4 ($options) option "burst" must be of type int, string given
burst 1.5: TypeError: RRateLimiter::__construct(): Argument #4 ($options) option "burst" must be of type int, float given
burst null: TypeError: RRateLimiter::__construct(): Argument #4 ($options) option "burst" must be of type int, null given
unknown option: ValueError: RRateLimiter::__construct(): Argument #4 ($options) unknown option "bursts"
wait -1 (option): ValueError: RRateLimiter::__construct(): Argument #4 ($options) option "wait" must be between 0 and 2147483647 (milliseconds)
tryAcquire(0): ValueError: RRateLimiter::tryAcquire(): Argument #1 ($n) must be between 1 and 10 (the limiter's burst: more permits could never be admitted at once)
tryAcquire(burst + 1): ValueError: RRateLimiter::tryAcquire(): Argument #1 ($n) must be between 1 and 4 (the limiter's burst: more permits could never be admitted at once)
tryAcquire(PHP_INT_MAX): ValueError: RRateLimiter::tryAcquire(): Argument #1 ($n) must be between 1 and 10 (the limiter's burst: more permits could never be admitted at once)
acquire(-1): ValueError: RRateLimiter::acquire(): Argument #1 ($n) must be between 1 and 10 (the limiter's burst: more permits could never be admitted at once)
acquire(1, -1): ValueError: RRateLimiter::acquire(): Argument #2 ($waitMs) must be between 0 and 2147483647 (milliseconds)
acquire(1, PHP_INT_MAX): ValueError: RRateLimiter::acquire(): Argument #2 ($waitMs) must be between 0 and 2147483647 (milliseconds)
object(RRateLimiter)#%d (5) {
  ["name"]=>
  string(7) "rlock:l"
  ["limit"]=>
  int(10)
  ["period_ms"]=>
  int(1000)
  ["burst"]=>
  int(7)
  ["options"]=>
  array(10) {
%a
  }
}
done
