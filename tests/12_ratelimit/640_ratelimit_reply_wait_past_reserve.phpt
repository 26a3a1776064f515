--TEST--
RRateLimiter: a reply "taken, due in w" with w past the reserve asked (0 for tryAcquire(), the wait left for a fair acquire()) is an RLockException, never a sleep of w
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../fake_redis.inc';
/* taken, due in 2 s: within what the script can answer, past anything asked here (slept,
 * the call would return true) */
$fake = rlock_fake_redis(['EVALSHA' => rlock_resp([1, 2000000, '1 0'])]);
$calls = [
    'tryAcquire()' => fn() => (new RRateLimiter('r', 10, 1000, ['server' => $fake['dsn']]))->tryAcquire(),
    'acquire(1, 100)' => fn() => (new RRateLimiter('r', 10, 1000, ['server' => $fake['dsn']]))->acquire(1, 100),
    'fair acquire(1, 100)' => fn() => (new RRateLimiter('r', 10, 1000, ['server' => $fake['dsn'], 'fair' => true]))->acquire(1, 100),
];
foreach ($calls as $what => $call) {
    try {
        $got = $call();
        echo "$what: ", var_export($got, true), "\n";
    } catch (RLockException $e) {
        echo "$what: ", get_class($e), ': ', preg_replace('/127\.0\.0\.1:\d+/', 'HOST', $e->getMessage()), "\n";
    }
}
$fake['stop']();
?>
--EXPECT--
tryAcquire(): RLockException: Redis HOST: unexpected reply to the rate limit script
acquire(1, 100): RLockException: Redis HOST: unexpected reply to the rate limit script
fair acquire(1, 100): RLockException: Redis HOST: unexpected reply to the rate limit script
