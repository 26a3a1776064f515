--TEST--
A key Redis answers an error for (WRONGTYPE) ends lock($wait) at once with RLockException: only a lost connection is waited out
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$l = new RLock('wrongtype', rlock_test_options());
rlock_test_cmd('HSET', $l->key(), 'a', 'b');
foreach ([0, 3000] as $wait) {
    $t = microtime(true);
    try {
        $l->lock($wait);
        echo "no exception\n";
    } catch (RLockConnectionException $e) {
        echo "connection exception: ", $e->getMessage(), "\n";
    } catch (RLockException $e) {
        echo get_class($e), ": ", str_contains($e->getMessage(), 'WRONGTYPE') ? 'WRONGTYPE' : $e->getMessage(), "\n";
        echo "at once: ", var_export(microtime(true) - $t < 1.0 * $slow, true), "\n";
    }
}
rlock_test_cmd('DEL', $l->key());
?>
--EXPECT--
RLockException: WRONGTYPE
at once: true
RLockException: WRONGTYPE
at once: true
