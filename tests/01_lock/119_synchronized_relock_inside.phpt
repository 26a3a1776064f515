--TEST--
Inside synchronized(): unlock() then lock() again, or nested synchronized() with an unlock() inside; holds are counted as any, and the last is given back when synchronized() ends, without RLockLostException
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$l = new RLock('sync-relock', rlock_test_options());

// released early, then taken again: synchronized() gives back that last hold
$r = $l->synchronized(function (RLock $lock) {
    $lock->unlock();
    $first = $lock->lock();
    return [$first, rlock_test_cmd('EXISTS', $lock->key())];
});
echo json_encode($r), ' ', var_export($l->lost(), true), ' ', rlock_test_cmd('EXISTS', $l->key()), "\n";

// reentrant nesting: the inner callable gives back one hold early; the outer ends holding none
$r = $l->synchronized(function (RLock $lock) {
    $inner = $lock->synchronized(function (RLock $lock) {
        $lock->unlock();
        return rlock_test_cmd('EXISTS', $lock->key());
    });
    return [$inner, rlock_test_cmd('EXISTS', $lock->key())];
});
echo json_encode($r), ' ', var_export($l->lost(), true), ' ', rlock_test_cmd('EXISTS', $l->key()), "\n";

// a lock() of its own inside: still held after synchronized() gives back its hold
$l->synchronized(fn (RLock $lock) => $lock->lock());
echo var_export($l->token() !== null, true), ' ', rlock_test_cmd('EXISTS', $l->key()), "\n";
$l->unlock();
echo rlock_test_cmd('EXISTS', $l->key()), "\n";
?>
--EXPECT--
[true,1] false 0
[1,0] false 0
true 1
0
