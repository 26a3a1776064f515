--TEST--
Redlock: extend() after the lease ran out on every master and another owner held the lock in between is false, even when earlier extend() calls reached only a minority (RLockConnectionException) and set the key again where it was gone
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$m = [rlock_test_own_server(), rlock_test_own_server(), rlock_test_own_server()];
$o = ['servers' => array_column($m, 'dsn'), 'ttl' => 1000 * $slow, 'read_timeout' => 300 * $slow,
    'connect_timeout' => 300 * $slow, 'prefix' => 'f814:'];
$a = new RLock('k', $o);
var_dump($a->lock());
// A's lease runs out on every master
for ($deadline = microtime(true) + 30 * $slow; array_filter($m, fn ($s) => $s['cmd']('PTTL', 'f814:k') !== -2);) {
    if (microtime(true) > $deadline) {
        die("the lease never ran out\n");
    }
    usleep(5000);
}
// another owner holds the lock, and gives it back
$b = new RLock('k', $o);
var_dump($b->lock(0), $b->unlock());
// A tries to extend while only one master answers, a different one each time
foreach ([[1, 2], [0, 2]] as $down) {
    foreach ($down as $i) {
        exec("kill -STOP {$m[$i]['pid']}");
    }
    try {
        var_dump($a->extend());
    } catch (RLockConnectionException $e) {
        echo "RLockConnectionException\n";
    }
    foreach ($down as $i) {
        exec("kill -CONT {$m[$i]['pid']}");
    }
}
// all masters answer: the lock was B's after A's lease ended, A's is not "still held"
var_dump($a->extend());
echo 'keys left with A\'s token: ', count(array_filter($m, fn ($s) => $s['cmd']('GET', 'f814:k') === $a->token() && $a->token() !== null)), "\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
RLockConnectionException
RLockConnectionException
bool(false)
keys left with A's token: 0
