--TEST--
watchdog with "servers" (Redlock): the lock stays held while a quorum of masters renews it (one master taken by another token is left alone), and is lost at the first renewal that finds fewer than a quorum ours: lost(), onLost() at the next opcode, unlock() false
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../onlost.inc';
require __DIR__ . '/../watchdog.inc';
$s = rlock_test_slow();
$m = [rlock_test_own_server(), rlock_test_own_server(), rlock_test_own_server()];
$l = new RLock('a', ['servers' => array_column($m, 'dsn'), 'ttl' => 1000 * $s, 'watchdog' => true, 'prefix' => 'f750:']);
$l->onLost(rlock_test_on_lost('a', $l));
var_dump($l->tryLock());
$key = $l->key();
$renewals = fn () => rlock_test_info('Watchdog renewals');

// C is taken by another: two more renewals later, still ours on A and B, and C untouched
$m[2]['cmd']('SET', $key, 'another', 'PX', '600000');
$before = $renewals();
for ($deadline = hrtime(true) + 5e9 * $s; $renewals() < $before + 2 && hrtime(true) < $deadline;) {
    rlock_test_sleep(10);
}
var_dump($renewals() >= $before + 2, $l->lost(), $m[2]['cmd']('GET', $key), $m[2]['cmd']('PTTL', $key) > 1000 * $s);

// B too: one master of three is no quorum: lost at the next renewal
$m[1]['cmd']('SET', $key, 'another', 'PX', '600000');
echo "the loop ended by the callback: ", var_export(rlock_test_spin(1), true), "\n";
var_dump($GLOBALS['lost'], $l->lost(), rlock_test_info('Watchdog locks found lost'), rlock_test_info('Watchdog locks renewed now'));
var_dump($l->unlock());
var_dump($m[1]['cmd']('GET', $key), $m[2]['cmd']('GET', $key));
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
string(7) "another"
bool(true)
the loop ended by the callback: true
array(1) {
  [0]=>
  string(1) "a"
}
bool(true)
int(1)
int(0)
bool(false)
string(7) "another"
string(7) "another"
