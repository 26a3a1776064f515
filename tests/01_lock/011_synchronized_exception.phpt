--TEST--
An exception thrown by $fn propagates out of synchronized() after the lock was released
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
class Boom extends Exception {}
$l = new RLock('sync-ex', rlock_test_options());
try {
    $l->synchronized(function ($lock) {
        echo "held: ", var_export($lock->isAcquired(), true), "\n";
        throw new Boom('from $fn');
    });
    echo "not reached\n";
} catch (Boom $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
    echo "released before the catch: ", var_export(rlock_test_cmd('EXISTS', $l->key()) === 0, true), "\n";
    echo "token: ", var_export($l->token(), true), "\n";
}

// $fn's exception wins even when the release finds the lock gone
try {
    $l->synchronized(function ($lock) {
        rlock_test_cmd('DEL', $lock->key());
        throw new Boom('still mine');
    });
} catch (Throwable $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}

// an Error too
try {
    $l->synchronized(fn() => intdiv(1, 0));
} catch (DivisionByZeroError $e) {
    echo get_class($e), ", released: ", var_export(rlock_test_cmd('EXISTS', $l->key()) === 0, true), "\n";
}
var_dump($l->tryLock(), $l->unlock());
?>
--EXPECT--
held: true
Boom: from $fn
released before the catch: true
token: NULL
Boom: still mine
DivisionByZeroError, released: true
bool(true)
bool(true)
