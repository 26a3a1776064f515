--TEST--
watchdog: synchronized() whose lock was found lost throws RLockLostException carrying the result
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../watchdog.inc';
$l = new RLock('a', rlock_test_options(['ttl' => 300, 'watchdog' => true]));
try {
    $l->synchronized(function (RLock $l) {
        rlock_test_cmd('SET', $l->key(), 'other', 'PX', '60000');
        // the watchdog's next renewal (within ttl/3) finds it gone: awaited, with a deadline
        $deadline = hrtime(true) + 5e9 * (rlock_test_slow());
        while (!$l->lost() && hrtime(true) < $deadline) {
            rlock_test_sleep(10);
        }
        var_dump($l->lost());
        return ['done' => 42];
    });
} catch (RLockLostException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
    var_dump($e->getResult());
}
var_dump($l->lost());
var_dump(rlock_test_cmd('GET', $l->key()));
?>
--EXPECTF--
bool(true)
RLockLostException: The lock "%sa" expired before it was released
array(1) {
  ["done"]=>
  int(42)
}
bool(true)
string(5) "other"
