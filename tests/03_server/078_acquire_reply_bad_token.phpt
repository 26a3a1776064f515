--TEST--
An acquire script reply whose token is not one of ours (spaces, empty, 31 or 33 digits, not lower-case hex, not a string), or whose fence, pttl or wait is out of range, or the mutex's bare pttl out of range (below -2, PHP_INT_MAX): refused, never adopted; a bare pttl in range is "not acquired"
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../fake_redis.inc';
$ok = str_repeat('0123456789abcdef', 2);
$replies = [
    'spaces' => [1, '   ', 1],
    'empty' => [1, '', 1],
    '31 digits' => [1, substr($ok, 1), 1],
    '33 digits' => [1, $ok . 'a', 1],
    'upper-case hex' => [1, strtoupper($ok), 1],
    'not hex' => [1, str_repeat('g', 32), 1],
    'an integer' => [1, 5, 1],
    'nil' => [1, null, 1],
    'negative fence' => [1, $ok, -5],
    'acquired 2' => [2, $ok, 1],
    'pttl -3' => [0, -3, 0],
    'wait -1' => [0, 1000, -1],
    'four elements' => [1, $ok, 1, 1],
    'bare pttl -3' => -3,
    'bare pttl PHP_INT_MAX' => PHP_INT_MAX,
    'bare pttl 250' => 250,
];
foreach ($replies as $what => $reply) {
    // fencing: the acquire is the script, not a plain SET
    $fake = rlock_fake_redis(fn (array $argv) => str_starts_with(strtoupper($argv[0]), 'EVAL') && $argv[2] === '4'
        ? rlock_resp($reply) : ":0\r\n");
    $l = new RLock('k', ['server' => $fake['dsn'], 'fencing' => true, 'auto_release' => false]);
    try {
        $got = var_export($l->tryLock(), true);
        echo "$what: $got, token ", var_export($l->token(), true), "\n";
    } catch (RLockException $e) {
        echo "$what: ", get_class($e), ': ', str_replace($fake['addr'], 'FAKE', $e->getMessage()), "\n";
    }
    $fake['stop']();
}
?>
--EXPECT--
spaces: RLockException: Redis FAKE: unexpected reply to the acquire script
empty: RLockException: Redis FAKE: unexpected reply to the acquire script
31 digits: RLockException: Redis FAKE: unexpected reply to the acquire script
33 digits: RLockException: Redis FAKE: unexpected reply to the acquire script
upper-case hex: RLockException: Redis FAKE: unexpected reply to the acquire script
not hex: RLockException: Redis FAKE: unexpected reply to the acquire script
an integer: RLockException: Redis FAKE: unexpected reply to the acquire script
nil: RLockException: Redis FAKE: unexpected reply to the acquire script
negative fence: RLockException: Redis FAKE: unexpected reply to the acquire script
acquired 2: RLockException: Redis FAKE: unexpected reply to the acquire script
pttl -3: RLockException: Redis FAKE: unexpected reply to the acquire script
wait -1: RLockException: Redis FAKE: unexpected reply to the acquire script
four elements: RLockException: Redis FAKE: unexpected reply to the acquire script
bare pttl -3: RLockException: Redis FAKE: unexpected reply to the acquire script
bare pttl PHP_INT_MAX: RLockException: Redis FAKE: unexpected reply to the acquire script
bare pttl 250: false, token NULL
