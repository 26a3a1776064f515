--TEST--
lock(PHP_INT_MAX) waits (or is refused with a ValueError); it never gives up at once
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$l = new RLock('forever', rlock_test_options());
rlock_test_cmd('SET', $l->key(), 'someone-else', 'PX', '300');
try {
    $r = $l->lock(PHP_INT_MAX);
    echo "lock(PHP_INT_MAX): ", var_export($r, true), "\n";
    if ($r) {
        echo "ok\n";
        $l->unlock();
    }
} catch (ValueError $e) {
    echo "ok\n";
}
?>
--EXPECTF--
%Aok
