--TEST--
managed Redis: as a user without SCRIPT LOAD, WAIT, CLIENT, ...: a waiter in another process, whose first script meets an empty script cache (NOSCRIPT), queues and is handed the lock at the release, with a greater fencing token
--EXTENSIONS--
rlock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl'); ?>
--FILE--
<?php
require __DIR__ . '/../managed.inc';
$slow = rlock_test_slow();
$srv = rlock_test_managed_server();
$cmd = $srv['cmd'];
$o = ['server' => $srv['user_dsn'], 'ttl' => 10000, 'fencing' => true];
$l = new RLock('k', $o);
var_dump($l->tryLock());
$fence = $l->fencingToken();
$cmd('SCRIPT', 'FLUSH');
$pid = pcntl_fork();
if ($pid === 0) {
    $w = new RLock('k', $o);
    $ok = $w->lock(5000 * $slow) && $w->fencingToken() > $fence && $w->unlock();
    exit($ok ? 0 : 1);
}
/* the waiter is queued: the key's waiter count is there */
$waiters = rlock_test_companion($l->key(), 'waiters');
for ($until = microtime(true) + 5 * $slow; !$cmd('EXISTS', $waiters) && microtime(true) < $until;) {
    usleep(1000);
}
var_dump($cmd('EXISTS', $waiters));
var_dump($l->unlock());
pcntl_waitpid($pid, $status);
echo "waiter: ", pcntl_wifexited($status) && pcntl_wexitstatus($status) === 0 ? 'handed the lock' : 'FAILED', "\n";
var_dump($cmd('EXISTS', $l->key()));
echo "refused: ", json_encode(rlock_test_managed_refused($srv)), "\n";
?>
--EXPECT--
bool(true)
int(1)
bool(true)
waiter: handed the lock
int(0)
refused: []
