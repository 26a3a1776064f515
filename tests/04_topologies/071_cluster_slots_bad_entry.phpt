--TEST--
CLUSTER SLOTS with an entry of too few elements or of the wrong types, or a host no node has: the reply is refused, not partly used
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../fake_redis.inc';
$entries = [
    'entry not an array' => fn ($me) => 'x',
    'two elements' => fn ($me) => [0, 16383],
    'node not an array' => fn ($me) => [0, 16383, $me['addr']],
    'node without a port' => fn ($me) => [0, 16383, ['127.0.0.1']],
    'slots as strings' => fn ($me) => ['0', '16383', ['127.0.0.1', $me['port']]],
    'port as a string' => fn ($me) => [0, 16383, ['127.0.0.1', (string) $me['port']]],
    'host as an integer' => fn ($me) => [0, 16383, [127001, $me['port']]],
    'host with a NUL byte' => fn ($me) => [0, 16383, ["127.0.0.1\0.evil", $me['port']]],
    'host of 300 bytes' => fn ($me) => [0, 16383, [str_repeat('h', 300), $me['port']]],
];
foreach ($entries as $what => $entry) {
    // the bad entry, then one that covers every slot: a node that would serve the key
    $fake = rlock_fake_redis(fn (array $argv, int $n, array $me) => match (strtoupper($argv[0])) {
        'CLUSTER' => rlock_resp([$entry($me), [0, 16383, ['127.0.0.1', $me['port']]]]),
        'SET' => "+OK\r\n",
        default => ":1\r\n",
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
// not an array at all
$fake = rlock_fake_redis(['CLUSTER' => "+OK\r\n"]);
try {
    (new RLock('k', ['cluster' => [$fake['addr']]]))->tryLock();
} catch (RLockException $e) {
    echo "status reply: ", get_class($e), ': ', str_replace($fake['addr'], 'FAKE', $e->getMessage()), "\n";
}
?>
--EXPECT--
entry not an array: RLockConnectionException: Redis FAKE: CLUSTER SLOTS: entry 0: malformed
two elements: RLockConnectionException: Redis FAKE: CLUSTER SLOTS: entry 0: malformed
node not an array: RLockConnectionException: Redis FAKE: CLUSTER SLOTS: entry 0: malformed
node without a port: RLockConnectionException: Redis FAKE: CLUSTER SLOTS: entry 0: malformed
slots as strings: RLockConnectionException: Redis FAKE: CLUSTER SLOTS: entry 0: malformed
port as a string: RLockConnectionException: Redis FAKE: CLUSTER SLOTS: entry 0: malformed
host as an integer: RLockConnectionException: Redis FAKE: CLUSTER SLOTS: entry 0: malformed
host with a NUL byte: RLockConnectionException: Redis FAKE: CLUSTER SLOTS: entry 0: invalid host
host of 300 bytes: RLockConnectionException: Redis FAKE: CLUSTER SLOTS: entry 0: invalid host
status reply: RLockConnectionException: Redis FAKE: CLUSTER SLOTS: unexpected reply
