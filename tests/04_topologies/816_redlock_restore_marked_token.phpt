--TEST--
Redlock with 'fair' => false: restore() of a token whose key a waiter's round has marked on every master (the "+" that says waiters are counted) restores the hold, with the lease the masters hold
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$s = rlock_test_slow();
$m = [rlock_test_own_server(), rlock_test_own_server(), rlock_test_own_server()];
$o = ['servers' => array_column($m, 'dsn'), 'fair' => false, 'ttl' => 30000 * $s, 'prefix' => 'f816:'];
$a = new RLock('k', $o);
var_dump($a->tryLock());
$key = $a->key();
$token = $a->token();

$pid = pcntl_fork();
if ($pid === 0) {
    $b = new RLock('k', $o);
    exit($b->lock(20000 * $s) ? 0 : 1);
}
$marked = static fn () => count(array_filter($m, fn ($x) => $x['cmd']('GET', $key) === "$token+"));
for ($deadline = hrtime(true) + 10e9 * $s; $marked() < 3 && hrtime(true) < $deadline;) {
    usleep(2000);
}
echo "marked on every master: ", var_export($marked() === 3, true), "\n";
// the process A handed its token to
$r = new RLock('k', $o);
var_dump($r->restore($token));
echo "restored validity within the lease: ", var_export($r->ttl() > 0 && $r->ttl() <= 30000 * $s, true), "\n";
var_dump($r->unlock());
pcntl_waitpid($pid, $status);
echo "the waiter took it: ", var_export(pcntl_wexitstatus($status) === 0, true), "\n";
?>
--EXPECT--
bool(true)
marked on every master: true
bool(true)
restored validity within the lease: true
bool(true)
the waiter took it: true
