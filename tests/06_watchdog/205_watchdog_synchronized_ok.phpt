--TEST--
watchdog: synchronized() longer than the ttl returns the result; the lease was renewed throughout
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../watchdog.inc';
$s = rlock_test_slow();
$l = new RLock('a', rlock_test_options(['ttl' => 300 * $s, 'watchdog' => true]));
var_dump($l->synchronized(function (RLock $l) use ($s) {
    rlock_test_sleep(1000 * $s);
    return rlock_test_cmd('GET', $l->key()) === $l->token();
}));
var_dump($l->lost(), rlock_test_cmd('EXISTS', $l->key()));
?>
--EXPECT--
bool(true)
bool(false)
int(0)
