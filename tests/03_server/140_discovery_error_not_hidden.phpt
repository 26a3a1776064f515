--TEST--
Sentinel and Cluster discovery: when the one server that answered answered badly, the exception says what it answered, not "not awaited" of a slower server it hid
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../fake_redis.inc';
// A answers at once, badly (an array of one string: neither a master's address nor slots);
// B answers nothing. Both orders: the message is A's either way.
$a = rlock_fake_redis(fn (array $argv) => rlock_resp(['only-host']));
$b = rlock_fake_redis(fn (array $argv) => null);
$t = ['connect_timeout' => 200, 'read_timeout' => 200];
$name = fn (string $m) => str_replace([$a['addr'], $b['addr']], ['A', 'B'], $m);
foreach ([[$a, $b], [$b, $a]] as [$first, $second]) {
    foreach (['sentinel', 'cluster'] as $how) {
        $o = $t + ($how === 'sentinel'
            ? ['sentinel' => [$first['addr'], $second['addr']], 'service' => 'mymaster']
            : ['cluster' => [$first['addr'], $second['addr']]]);
        try {
            (new RLock('k', $o))->tryLock();
            echo "$how: no exception\n";
        } catch (RLockException $e) {
            echo "$how: ", get_class($e), ': ', $name($e->getMessage()), "\n";
        }
    }
}
$b['stop']();   // the one forked last first: it holds a copy of A's control socket
$a['stop']();
?>
--EXPECT--
sentinel: RLockConnectionException: Redis A: knows no master named "mymaster"
cluster: RLockConnectionException: Redis A: CLUSTER SLOTS: entry 0: malformed
sentinel: RLockConnectionException: Redis A: knows no master named "mymaster"
cluster: RLockConnectionException: Redis A: CLUSTER SLOTS: entry 0: malformed
