--TEST--
watchdog with "servers" (Redlock): after fork() the child renews none of its parent's Redlock locks, the parent still renews them on every master, and the child's own Redlock lock is renewed on every master by a thread of its own
--EXTENSIONS--
rlock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl'); ?>
--FILE--
<?php
require __DIR__ . '/../watchdog.inc';
$s = rlock_test_slow();
$m = [rlock_test_own_server(), rlock_test_own_server(), rlock_test_own_server()];
$o = ['servers' => array_column($m, 'dsn'), 'ttl' => 1000 * $s, 'watchdog' => true, 'prefix' => 'f753:'];
$everywhere = fn (string $key, string $token) => implode(' ', array_map(fn ($x) => $x['cmd']('GET', $key) === $token ? 'ours' : 'not', $m));
$l = new RLock('parent', $o);
var_dump($l->tryLock());
$key = $l->key();
$token = $l->token();
$done = sys_get_temp_dir() . '/rlock-phpt-753-' . getmypid();
@unlink($done);
$pid = pcntl_fork();
if ($pid === 0) {
    // the child holds nothing of its parent's, and renews what it takes itself for three leases
    $mine = new RLock('child', $o);
    $ok = !$l->isAcquired() && $l->token() === null && $mine->tryLock();
    rlock_test_sleep(3000 * $s);
    // the connections of $everywhere are the parent's too: asked once the parent is done with them
    for ($deadline = microtime(true) + 60 * $s; !file_exists($done) && microtime(true) < $deadline;) {
        rlock_test_sleep(10);
    }
    $ok = $ok && $everywhere($mine->key(), $mine->token()) === 'ours ours ours' && !$mine->lost() && $mine->unlock();
    exit($ok ? 0 : 1);
}
// three leases in the parent: still renewed on every master
rlock_test_sleep(3000 * $s);
echo "parent: ", $everywhere($key, $token), ", lost: ", var_export($l->lost(), true), "\n";
var_dump($l->unlock());
touch($done);
pcntl_waitpid($pid, $status);
unlink($done);
echo "child exit: ", rlock_test_exit($status), "\n";
?>
--EXPECT--
bool(true)
parent: ours ours ours, lost: false
bool(true)
child exit: 0
