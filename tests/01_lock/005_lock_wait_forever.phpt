--TEST--
lock(PHP_INT_MAX) is refused with a ValueError naming the range of a wait; the longest wait, lock(2147483647), waits (here until the holder's lease ends): it never gives up at once
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$l = new RLock('forever', rlock_test_options());
rlock_test_cmd('SET', $l->key(), 'someone-else', 'PX', '300');
try {
    var_dump($l->lock(PHP_INT_MAX));
} catch (ValueError $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
var_dump(rlock_test_cmd('GET', $l->key()));
// true only once the holder's key expired: lock() waited for it
var_dump($l->lock(2147483647));
var_dump($l->unlock());
?>
--EXPECT--
ValueError: RLock::lock(): Argument #1 ($waitMs) must be between 0 and 2147483647 (milliseconds)
string(12) "someone-else"
bool(true)
bool(true)
