--TEST--
watchdog with "servers" (Redlock): forceUnlock() from another process's object releases the lock on every master while its owner's watchdog renews it; the owner's next renewal finds it gone on a quorum: the lock is lost, and the renewal does not take the key back on any master (a heal that found no quorum is given back), so a third object gets it at once
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../watchdog.inc';
$s = rlock_test_slow();
$m = [rlock_test_own_server(), rlock_test_own_server(), rlock_test_own_server()];
$opts = ['servers' => array_column($m, 'dsn'), 'ttl' => 1000 * $s, 'prefix' => 'f760:'];
$owner = new RLock('a', ['watchdog' => true, 'ttl' => 9000 * $s] + $opts);
var_dump($owner->tryLock());
$key = $owner->key();

$pid = pcntl_fork();
if ($pid === 0) {
    // another process forces it free on every master
    $ok = (new RLock('a', $opts))->forceUnlock();
    exit($ok ? 0 : 1);
}
pcntl_waitpid($pid, $status);
var_dump(pcntl_wexitstatus($status));
// the owner's watchdog finds it gone (its next round: a third of the lease)
for ($deadline = hrtime(true) + 9e9 * $s; !$owner->lost() && hrtime(true) < $deadline;) {
    rlock_test_sleep(10);
}
var_dump($owner->lost(), $owner->isAcquired());
// no master holds it for the lost owner (awaited: far less than the 9 s lease)
$held = fn () => array_sum(array_map(fn ($server) => $server['cmd']('EXISTS', $key), $m));
for ($deadline = hrtime(true) + 3e9 * $s; $held() > 0 && hrtime(true) < $deadline;) {
    rlock_test_sleep(10);
}
var_dump($held());
$other = new RLock('a', $opts);
var_dump($other->tryLock(), $other->unlock());
var_dump($owner->unlock());
?>
--EXPECT--
bool(true)
int(0)
bool(true)
bool(false)
int(0)
bool(true)
bool(true)
bool(false)
