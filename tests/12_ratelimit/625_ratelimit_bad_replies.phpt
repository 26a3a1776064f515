--TEST--
RRateLimiter: a reply the scripts never send (a wait below 0 or past the longest a limit has, a rest not below the limit, the wrong shape, a grant without the TAT it left or with one too long) is an RLockException, never a crash, a wrapped count or a sleep it names
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../fake_redis.inc';
$replies = [
    'negative wait' => [1, -5, '1 0'],
    'admitted 2' => [2, 0],
    'a wait of PHP_INT_MAX us' => [0, PHP_INT_MAX],
    'a string' => 'x',
    'too few' => [1],
    'no array' => 7,
    'rest not below the limit' => [0, 10],
    'negative free' => [-1, 0],
    'taken, no TAT' => [1, 0],
    'taken, a TAT of 60 bytes' => [1, 0, str_repeat('9', 60)],
    'taken, a TAT not a string' => [1, 0, 5],
];
foreach ($replies as $what => $reply) {
    $fake = rlock_fake_redis(['EVALSHA' => rlock_resp($reply)]);
    $l = new RRateLimiter('r', 10, 1000, ['server' => $fake['dsn']]);
    $t = hrtime(true);
    foreach (['tryAcquire', 'acquire', 'remaining'] as $m) {
        try {
            $got = $l->$m();
            echo "$what, $m(): ", var_export($got, true), "\n";
        } catch (RLockException $e) {
            echo "$what, $m(): ", get_class($e), ': ', preg_replace('/127\.0\.0\.1:\d+/', 'HOST', $e->getMessage()), "\n";
        }
    }
    $fake['stop']();
}
?>
--EXPECT--
negative wait, tryAcquire(): RLockException: Redis HOST: unexpected reply to the rate limit script
negative wait, acquire(): RLockException: Redis HOST: unexpected reply to the rate limit script
negative wait, remaining(): RLockException: Redis HOST: unexpected reply to the rate limit script
admitted 2, tryAcquire(): RLockException: Redis HOST: unexpected reply to the rate limit script
admitted 2, acquire(): RLockException: Redis HOST: unexpected reply to the rate limit script
admitted 2, remaining(): 0
a wait of PHP_INT_MAX us, tryAcquire(): RLockException: Redis HOST: unexpected reply to the rate limit script
a wait of PHP_INT_MAX us, acquire(): RLockException: Redis HOST: unexpected reply to the rate limit script
a wait of PHP_INT_MAX us, remaining(): RLockException: Redis HOST: unexpected reply to the rate limit script
a string, tryAcquire(): RLockException: Redis HOST: unexpected reply to the rate limit script
a string, acquire(): RLockException: Redis HOST: unexpected reply to the rate limit script
a string, remaining(): RLockException: Redis HOST: unexpected reply to the rate limit script
too few, tryAcquire(): RLockException: Redis HOST: unexpected reply to the rate limit script
too few, acquire(): RLockException: Redis HOST: unexpected reply to the rate limit script
too few, remaining(): RLockException: Redis HOST: unexpected reply to the rate limit script
no array, tryAcquire(): RLockException: Redis HOST: unexpected reply to the rate limit script
no array, acquire(): RLockException: Redis HOST: unexpected reply to the rate limit script
no array, remaining(): RLockException: Redis HOST: unexpected reply to the rate limit script
rest not below the limit, tryAcquire(): false
rest not below the limit, acquire(): false
rest not below the limit, remaining(): RLockException: Redis HOST: unexpected reply to the rate limit script
negative free, tryAcquire(): RLockException: Redis HOST: unexpected reply to the rate limit script
negative free, acquire(): RLockException: Redis HOST: unexpected reply to the rate limit script
negative free, remaining(): RLockException: Redis HOST: unexpected reply to the rate limit script
taken, no TAT, tryAcquire(): RLockException: Redis HOST: unexpected reply to the rate limit script
taken, no TAT, acquire(): RLockException: Redis HOST: unexpected reply to the rate limit script
taken, no TAT, remaining(): 0
taken, a TAT of 60 bytes, tryAcquire(): RLockException: Redis HOST: unexpected reply to the rate limit script
taken, a TAT of 60 bytes, acquire(): RLockException: Redis HOST: unexpected reply to the rate limit script
taken, a TAT of 60 bytes, remaining(): RLockException: Redis HOST: unexpected reply to the rate limit script
taken, a TAT not a string, tryAcquire(): RLockException: Redis HOST: unexpected reply to the rate limit script
taken, a TAT not a string, acquire(): RLockException: Redis HOST: unexpected reply to the rate limit script
taken, a TAT not a string, remaining(): RLockException: Redis HOST: unexpected reply to the rate limit script
