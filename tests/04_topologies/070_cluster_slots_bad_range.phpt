--TEST--
CLUSTER SLOTS with a slot range that is negative, past slot 16383, huge or reversed: the reply is refused, nothing is written out of bounds; ranges that overlap are each freed once
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../fake_redis.inc';
$ranges = [
    'negative start' => [-5, 100],
    'negative end' => [0, -1],
    'start past 16383' => [16384, 16400],
    'end past 16383' => [16000, 16384],
    'huge end' => [0, 99999999999],
    'most negative start' => [PHP_INT_MIN, 10],
    'reversed' => [100, 50],
    'overlapping the next' => [40, 50],
];
foreach ($ranges as $what => [$from, $to]) {
    // the bad range, then one that covers every slot: a node that would serve the key
    $fake = rlock_fake_redis(function (array $argv, int $n, array $me) use ($from, $to) {
        return match (strtoupper($argv[0])) {
            'CLUSTER' => rlock_resp([[$from, $to, ['127.0.0.1', $me['port']]], [0, 16383, ['127.0.0.1', $me['port']]]]),
            'SET' => "+OK\r\n",
            default => ":1\r\n",
        };
    });
    try {
        $l = new RLock('k', ['cluster' => [$fake['addr']], 'read_timeout' => 2000]);
        $got = var_export($l->tryLock(), true);
        echo "$what: $got\n";
    } catch (RLockException $e) {
        echo "$what: ", get_class($e), ': ', str_replace($fake['addr'], 'FAKE', $e->getMessage()), "\n";
    }
    $fake['stop']();
}
?>
--EXPECT--
negative start: RLockConnectionException: Redis FAKE: CLUSTER SLOTS: entry 0: invalid slot range
negative end: RLockConnectionException: Redis FAKE: CLUSTER SLOTS: entry 0: invalid slot range
start past 16383: RLockConnectionException: Redis FAKE: CLUSTER SLOTS: entry 0: invalid slot range
end past 16383: RLockConnectionException: Redis FAKE: CLUSTER SLOTS: entry 0: invalid slot range
huge end: RLockConnectionException: Redis FAKE: CLUSTER SLOTS: entry 0: invalid slot range
most negative start: RLockConnectionException: Redis FAKE: CLUSTER SLOTS: entry 0: invalid slot range
reversed: RLockConnectionException: Redis FAKE: CLUSTER SLOTS: entry 0: invalid slot range
overlapping the next: true
