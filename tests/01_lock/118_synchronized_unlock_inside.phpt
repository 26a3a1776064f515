--TEST--
unlock() inside synchronized()'s callable is an early release, not a lost lock: synchronized() returns $fn's result and lost() stays false
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$l = new RLock('sync-early', rlock_test_options());
try {
    $r = $l->synchronized(function (RLock $lock) {
        $released = $lock->unlock();
        return ['released' => $released, 'key there' => rlock_test_cmd('EXISTS', $lock->key())];
    });
    echo json_encode($r), "\n";
} catch (RLockLostException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
var_dump($l->lost(), $l->token(), rlock_test_cmd('EXISTS', $l->key()));

// an unlock() that finds the lock taken over is a loss still
try {
    $l->synchronized(function (RLock $lock) {
        rlock_test_cmd('SET', $lock->key(), 'new-owner', 'PX', '20000');
        return $lock->unlock();
    });
    echo "not reached\n";
} catch (RLockLostException $e) {
    echo get_class($e), ' ', var_export($e->getResult(), true), "\n";
}
var_dump($l->lost(), rlock_test_cmd('GET', $l->key()));
?>
--EXPECT--
{"released":true,"key there":0}
bool(false)
NULL
int(0)
RLockLostException false
bool(true)
string(9) "new-owner"
