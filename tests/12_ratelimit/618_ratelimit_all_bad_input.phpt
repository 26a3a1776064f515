--TEST--
RRateLimiter::all(): what one script cannot take together is refused before anything is sent, naming the limits: none, not a limiter, one limit twice, limits on different servers, more permits than a burst
--EXTENSIONS--
rlock
--FILE--
<?php
$o = ['server' => 'redis://127.0.0.1:1'];
$a = new RRateLimiter('a', 5, 1000, $o);
$b = new RRateLimiter('b', 5, 1000, $o + ['burst' => 2]);
$tries = [
    'none' => fn () => RRateLimiter::all([]),
    'not a limiter' => fn () => RRateLimiter::all([$a, new RLock('x', $o)]),
    'a string' => fn () => RRateLimiter::all(['a']),
    'one limit twice' => fn () => RRateLimiter::all([$a, new RRateLimiter('a', 9, 500, $o)]),
    'two servers' => fn () => RRateLimiter::all([$a, new RRateLimiter('c', 5, 1000, ['server' => 'redis://127.0.0.1:2'])]),
    'n over a burst' => fn () => RRateLimiter::all([$a, $b], 3),
    'n = 0' => fn () => RRateLimiter::all([$a], 0),
    'n = PHP_INT_MAX' => fn () => RRateLimiter::all([$a], PHP_INT_MAX),
    'too many' => fn () => RRateLimiter::all(array_map(fn ($i) => new RRateLimiter("l$i", 1, 1000, $o), range(1, 25))),
];
foreach ($tries as $what => $try) {
    try {
        $try();
        echo "$what: no error\n";
    } catch (Throwable $e) {
        echo "$what: ", get_class($e), ': ', $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
none: ValueError: RRateLimiter::all(): Argument #1 ($limiters) must not be empty
not a limiter: TypeError: RRateLimiter::all(): Argument #1 ($limiters) must contain only RRateLimiter objects, RLock given
a string: TypeError: RRateLimiter::all(): Argument #1 ($limiters) must contain only RRateLimiter objects, string given
one limit twice: ValueError: RRateLimiter::all(): Argument #1 ($limiters) must name limits that one script can take together: "rlock:a" and "rlock:a" are the same limit
two servers: ValueError: RRateLimiter::all(): Argument #1 ($limiters) must name limits that one script can take together: "rlock:a" and "rlock:c" are not on the same server
n over a burst: ValueError: RRateLimiter::all(): Argument #2 ($n) must be between 1 and 2 (the burst of the limiter "rlock:b": more permits could never be admitted at once)
n = 0: ValueError: RRateLimiter::all(): Argument #2 ($n) must be between 1 and 5 (the burst of the limiter "rlock:a": more permits could never be admitted at once)
n = PHP_INT_MAX: ValueError: RRateLimiter::all(): Argument #2 ($n) must be between 1 and 5 (the burst of the limiter "rlock:a": more permits could never be admitted at once)
too many: ValueError: RRateLimiter::all(): Argument #1 ($limiters) must contain at most 24 limiters
