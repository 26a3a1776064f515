--TEST--
Sentinel and Cluster: an unexpected reply from the master or node is blamed on that server's host:port, not on the "server" option's (127.0.0.1:6379 by default), with that option's password still never shown
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../fake_redis.inc';
// the master (or node): AUTH accepted, an error echoing the password to SET, an integer
// out of range to every script, a status to anything else
$node = rlock_fake_redis(fn (array $argv) => match (strtoupper($argv[0])) {
    'AUTH' => "+OK\r\n",
    'EVALSHA', 'EVAL' => ":-99\r\n",
    'SET' => "-ERR no, Pw0rd5ecret\r\n",
    default => "+WHAT\r\n",
});
$finder = rlock_fake_redis(fn (array $argv) => strtoupper($argv[0]) === 'SENTINEL'
    ? rlock_resp(['127.0.0.1', (string) $node['port']])
    : rlock_resp([[0, 16383, ['127.0.0.1', $node['port']]]]));
// the fake servers are PHP children, as slow as this process (10 times under valgrind): no
// timeout is under test here, so they are generous
$slow = rlock_test_slow();
$t = ['connect_timeout' => 2000 * $slow, 'read_timeout' => 2000 * $slow, 'server' => 'redis://:Pw0rd5ecret@127.0.0.1:1'];
$name = fn (string $m) => str_replace([$node['addr'], $finder['addr']], ['NODE', 'FINDER'], $m);
foreach (['sentinel' => ['sentinel' => [$finder['addr']], 'service' => 'mymaster'], 'cluster' => ['cluster' => [$finder['addr']]]] as $how => $o) {
    $l = new RLock('k', $t + $o);
    foreach (['isLocked', 'tryLock', 'ttl'] as $m) {
        try {
            $r = $l->$m();
            echo "$how $m: ", var_export($r, true), "\n";
        } catch (RLockException $e) {
            echo "$how $m: ", get_class($e), ': ', $name($e->getMessage()), "\n";
        }
    }
    try {
        (new RLock('k', $t + $o + ['fencing' => true]))->tryLock();  // the acquire script
    } catch (RLockException $e) {
        echo "$how fencing tryLock: ", get_class($e), ': ', $name($e->getMessage()), "\n";
    }
}
// the plain path is as it was
$l = new RLock('k', ['server' => "redis://:Pw0rd5ecret@{$node['addr']}"] + $t);
try {
    $l->tryLock();
} catch (RLockException $e) {
    echo "server tryLock: ", $name($e->getMessage()), "\n";
}
$finder['stop']();  // the one forked last first: it holds a copy of the node's control socket
$node['stop']();
?>
--EXPECT--
sentinel isLocked: RLockException: Redis NODE: unexpected reply of type 5
sentinel tryLock: RLockException: Redis NODE: ERR no, ***
sentinel ttl: RLockException: Redis NODE: unexpected reply of type 5
sentinel fencing tryLock: RLockException: Redis NODE: unexpected reply to the acquire script
cluster isLocked: RLockException: Redis NODE: unexpected reply of type 5
cluster tryLock: RLockException: Redis NODE: ERR no, ***
cluster ttl: RLockException: Redis NODE: unexpected reply of type 5
cluster fencing tryLock: RLockException: Redis NODE: unexpected reply to the acquire script
server tryLock: Redis NODE: ERR no, ***
