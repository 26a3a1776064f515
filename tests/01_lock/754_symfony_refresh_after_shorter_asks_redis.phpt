--TEST--
symfony/lock over RLockStore: a refresh() back to the Lock's ttl after a refresh to a shorter one asks Redis (the store took the lease it compared with for the one its save took, skipped the round trip, and the Key claimed 10 s while Redis held it 1 s: another process got in while isExpired() was false); a refresh within 1% of the lease never claims more than Redis has
--EXTENSIONS--
rlock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available');
if (!is_file('/usr/share/php/Symfony/Component/Lock/autoload.php')) die('skip symfony/lock not installed');
?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
require '/usr/share/php/Symfony/Component/Lock/autoload.php';
require dirname(__DIR__, 2) . '/bridge/autoload.php';

use RLock\Bridge\Symfony\RLockStore;
use Symfony\Component\Lock\LockFactory;

$o = rlock_test_options(['ttl' => 10000]);
$lock = (new LockFactory(new RLockStore($o)))->createLock('k', 10.0);
var_dump($lock->acquire());
$lock->refresh(1.0);
$lock->refresh(10.0);
$pttl = rlock_test_cmd('PTTL', $o['prefix'] . 'k');
// what the Key claims is what Redis holds, or less (1 s of slack for a loaded machine)
var_dump($pttl > 5000, $lock->getRemainingLifetime() * 1000 <= $pttl + 1000);

// a refresh 100 ms in (1% of a 20 s lease: no round trip needed) claims no more than Redis has
$lock2 = (new LockFactory(new RLockStore(['ttl' => 20000] + $o)))->createLock('k2', 20.0);
var_dump($lock2->acquire());
usleep(100000);
$lock2->refresh();
$pttl2 = rlock_test_cmd('PTTL', $o['prefix'] . 'k2');
var_dump($lock2->getRemainingLifetime() * 1000 <= $pttl2 + 1);

// while the Key says it holds, nobody else gets in, also once the lease Redis had then has run out
if ($pttl > 0 && $pttl < 5000) {
    usleep(($pttl + 100) * 1000);
}
$pid = pcntl_fork();
if ($pid === 0) {
    $other = (new LockFactory(new RLockStore($o)))->createLock('k', 10.0);
    exit($other->acquire() ? 0 : 1);
}
pcntl_waitpid($pid, $status);
var_dump(!$lock->isExpired(), pcntl_wexitstatus($status) === 0);
$lock->release();
$lock2->release();
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
