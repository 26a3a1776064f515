--TEST--
synchronized() throws RLockLostException carrying $fn's result when the lock was lost before the release
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$l = new RLock('sync-lost', rlock_test_options(['ttl' => 100]));

// the lease runs out while $fn works
try {
    $l->synchronized(function ($lock) use ($slow) {
        $deadline = microtime(true) + 5 * $slow;
        while (rlock_test_cmd('EXISTS', $lock->key()) && microtime(true) < $deadline) {
            usleep(10000);
        }
        return ['work' => 'done'];
    });
    echo "not reached\n";
} catch (RLockLostException $e) {
    echo get_class($e), ' (', get_parent_class($e), '): ', str_replace($l->key(), 'KEY', $e->getMessage()), "\n";
    var_dump($e->getResult());
}

// another owner took it over meanwhile: theirs stays untouched
try {
    $l->synchronized(function ($lock) {
        rlock_test_cmd('SET', $lock->key(), 'new-owner', 'PX', '20000');
        return 7;
    });
} catch (RLockLostException $e) {
    var_dump($e->getResult());
    var_dump(rlock_test_cmd('GET', $l->key()));
}

// a null result is a result too
rlock_test_cmd('DEL', $l->key());
try {
    $l->synchronized(function ($lock) { rlock_test_cmd('DEL', $lock->key()); });
} catch (RLockLostException $e) {
    var_dump($e->getResult());
}
var_dump($l->token());
?>
--EXPECT--
RLockLostException (RLockException): The lock "KEY" expired before it was released
array(1) {
  ["work"]=>
  string(4) "done"
}
int(7)
string(9) "new-owner"
NULL
NULL
