--TEST--
The php.ini settings rlock.* are the defaults of every option; the constructor's array wins
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
rlock.ttl=7000
rlock.prefix=rlock-test-024:
rlock.fencing=1
rlock.reentrant=0
rlock.wait=3000
rlock.auto_release=0
rlock.retry_delay=10
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
var_dump(ini_get('rlock.server'));
var_dump(ini_set('rlock.server', RLOCK_TEST_DSN) !== false);
foreach (['k', 'k2'] as $k) {
    rlock_test_cmd('DEL', "rlock-test-024:$k", "overridden:$k");
}

echo "from php.ini:\n";
$l = new RLock('k');
var_dump($l->key());
var_dump($l->lock());
$pttl = rlock_test_cmd('PTTL', $l->key());
echo "ttl 7000: ", var_export($pttl > 6000 && $pttl <= 7000, true), "\n";
echo "fencing: ", var_export(is_int($l->fencingToken()), true), "\n";
$again = new RLock('k');
echo "not reentrant: ", var_export($again->tryLock(), true), "\n";
$t = microtime(true);
$r = $again->lock();
$ms = (microtime(true) - $t) * 1000;
echo "lock() waits 3000: ", var_export(!$r && $ms >= 2900 && $ms < 3000 + 1000 * $slow, true), "\n";
$token = $l->token();
unset($l);
echo "no auto release: ", var_export(rlock_test_cmd('GET', 'rlock-test-024:k') === $token, true), "\n";
rlock_test_cmd('DEL', 'rlock-test-024:k');

echo "overridden:\n";
$o = ['ttl' => 3000, 'prefix' => 'overridden:', 'fencing' => false, 'reentrant' => true, 'wait' => 0, 'auto_release' => true];
$l = new RLock('k2', $o);
var_dump($l->key());
var_dump($l->lock());
$pttl = rlock_test_cmd('PTTL', $l->key());
echo "ttl 3000: ", var_export($pttl > 2000 && $pttl <= 3000, true), "\n";
echo "fencing: ", var_export($l->fencingToken(), true), "\n";
$again = new RLock('k2', $o);
echo "reentrant: ", var_export($again->tryLock() && $again->token() === $l->token(), true), "\n";
$again->unlock();
$busy = new RLock('k2', ['reentrant' => false] + $o);
$t = microtime(true);
$r = $busy->lock();
// (1 s: a loaded machine's turn, not php.ini's wait of 3 s)
echo "lock() does not wait: ", var_export(!$r && (microtime(true) - $t) * 1000 < 1000 * $slow, true), "\n";
unset($l);
echo "auto release: ", var_export(rlock_test_cmd('EXISTS', 'overridden:k2'), true), "\n";

echo "changed at run time:\n";
ini_set('rlock.ttl', '4000');
ini_set('rlock.prefix', 'rlock-test-024b:');
$l = new RLock('k3');
var_dump($l->key(), $l->lock());
$pttl = rlock_test_cmd('PTTL', $l->key());
echo "ttl 4000: ", var_export($pttl > 3000 && $pttl <= 4000, true), "\n";
rlock_test_cmd('DEL', $l->key());
?>
--EXPECT--
string(22) "redis://127.0.0.1:6379"
bool(true)
from php.ini:
string(16) "rlock-test-024:k"
bool(true)
ttl 7000: true
fencing: true
not reentrant: false
lock() waits 3000: true
no auto release: true
overridden:
string(13) "overridden:k2"
bool(true)
ttl 3000: true
fencing: NULL
reentrant: true
lock() does not wait: true
auto release: 0
changed at run time:
string(18) "rlock-test-024b:k3"
bool(true)
ttl 4000: true
