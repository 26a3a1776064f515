--TEST--
Reentrancy never vouches for a hold Redis no longer has: after the key was released elsewhere or lost and taken by another owner, a nested acquire fails
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['ttl' => 30000]);
$a = new RLock('taken', $o);
var_dump($a->lock());
// our lease still runs by our clock, but the key went away without us (another process
// released our token with RLock::release(), or Redis restarted without persistence) and
// another owner took it
var_dump(rlock_test_cmd('DEL', $a->key()));
rlock_test_cmd('SET', $a->key(), 'new-owner', 'PX', '20000');

$b = new RLock('taken', $o);
echo "other object: "; var_dump($b->tryLock());
echo "synchronized: ";
try {
    echo $b->synchronized(fn() => "ran while someone else held the key\n");
} catch (RLockTimeoutException $e) {
    echo "timeout\n";
}
var_dump(rlock_test_cmd('GET', $a->key()));
?>
--EXPECT--
bool(true)
int(1)
other object: bool(false)
synchronized: timeout
string(9) "new-owner"
