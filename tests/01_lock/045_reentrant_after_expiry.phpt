--TEST--
Reentrancy never vouches for a hold that expired: once another owner has the key, a nested acquire fails
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$o = rlock_test_options(['ttl' => 150]);
$a = new RLock('stale', $o);
var_dump($a->lock());
$deadline = microtime(true) + 5 * $slow;
while (rlock_test_cmd('EXISTS', $a->key()) && microtime(true) < $deadline) {
    usleep(10000);
}
// another process took the key after our lease ran out
rlock_test_cmd('SET', $a->key(), 'new-owner', 'PX', '20000');

$b = new RLock('stale', $o);
echo "other object: "; var_dump($b->tryLock());
echo "same object: "; var_dump($a->lock(100));
echo "synchronized: ";
try {
    $b->synchronized(fn() => 'ran while someone else held the key');
    echo "ran\n";
} catch (RLockTimeoutException $e) {
    echo "timeout\n";
}
var_dump(rlock_test_cmd('GET', $a->key()));
?>
--EXPECT--
bool(true)
other object: bool(false)
same object: bool(false)
synchronized: timeout
string(9) "new-owner"
