--TEST--
watchdog: a lock deleted behind our back is marked lost at the next renewal; isAcquired() says false without a round trip
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../watchdog.inc';
$l = new RLock('a', rlock_test_options(['ttl' => 300, 'watchdog' => true]));
var_dump($l->tryLock());
rlock_test_cmd('SET', $l->key(), 'someone else');
// the watchdog's next renewal (within ttl/3) finds it gone: awaited, with a deadline
$deadline = hrtime(true) + 5e9 * (rlock_test_slow());
while (!$l->lost() && hrtime(true) < $deadline) {
    rlock_test_sleep(10);
}
$gets = rlock_test_calls('get');
var_dump($l->lost());
var_dump($l->isAcquired());
var_dump(rlock_test_calls('get') - $gets);
var_dump(rlock_test_info('Watchdog locks found lost') >= 1);
/* the renewal did not touch the other owner's key */
var_dump(rlock_test_cmd('GET', $l->key()), rlock_test_cmd('PTTL', $l->key()));
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
int(0)
bool(true)
string(12) "someone else"
int(-1)
