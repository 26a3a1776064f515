--TEST--
synchronized() throws RLockTimeoutException, without calling $fn, when the lock is not acquired in time
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$l = new RLock('sync-busy', rlock_test_options());
rlock_test_cmd('SET', $l->key(), 'someone-else', 'PX', '20000');
$called = false;

foreach ([null, 300] as $wait) {
    $t = microtime(true);
    try {
        $l->synchronized(function () use (&$called) { $called = true; }, $wait);
    } catch (RLockTimeoutException $e) {
        $ms = (microtime(true) - $t) * 1000;
        echo get_class($e), ' (', get_parent_class($e), '): ', str_replace($l->key(), 'KEY', $e->getMessage()), "\n";
        echo "waited as asked: ", var_export($wait === null ? $ms < 1000 * $slow : $ms >= 250 && $ms < 3000 * $slow, true), "\n";
    }
}
var_dump($called, $l->token());
var_dump(rlock_test_cmd('GET', $l->key()));

try {
    $l->synchronized(fn() => 1, -1);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
RLockTimeoutException (RLockException): Could not acquire the lock "KEY" within 0 ms
waited as asked: true
RLockTimeoutException (RLockException): Could not acquire the lock "KEY" within 300 ms
waited as asked: true
bool(false)
NULL
string(12) "someone-else"
RLock::synchronized(): Argument #2 ($waitMs) must be between 0 and 2147483647 (milliseconds)
