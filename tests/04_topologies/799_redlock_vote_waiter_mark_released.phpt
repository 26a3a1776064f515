--TEST--
Redlock with 'fair' => false (the vote): a waiter's round marks each master's key (the one-server acquire's "+" that says waiters are counted); the holder's unlock() still frees every master and the waiter takes the lock at once, not when the lease runs out
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$s = rlock_test_slow();
$m = [rlock_test_own_server(), rlock_test_own_server(), rlock_test_own_server()];
$o = ['servers' => array_column($m, 'dsn'), 'fair' => false, 'ttl' => 30000 * $s, 'prefix' => 'f799:'];
$a = new RLock('k', $o);
var_dump($a->tryLock());
$key = $a->key();
$token = $a->token();

$pid = pcntl_fork();
if ($pid === 0) {
    $b = new RLock('k', $o);
    // within a third of the lease: a key left held on the masters would end this wait first
    exit($b->lock(10000 * $s) ? 0 : 1);
}
// the waiter's round has marked the key on every master
$marked = static fn () => count(array_filter($m, fn ($x) => $x['cmd']('GET', $key) === "$token+"));
for ($deadline = hrtime(true) + 10e9 * $s; $marked() < 3 && hrtime(true) < $deadline;) {
    usleep(2000);
}
echo "marked on every master: ", var_export($marked() === 3, true), "\n";
var_dump($a->unlock());
pcntl_waitpid($pid, $status);
echo "the waiter took it: ", var_export(pcntl_wexitstatus($status) === 0, true), "\n";
?>
--EXPECT--
bool(true)
marked on every master: true
bool(true)
the waiter took it: true
