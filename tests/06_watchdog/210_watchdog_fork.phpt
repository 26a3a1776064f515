--TEST--
watchdog: after fork() the child renews none of its parent's locks, the parent still does, and the child's own locks are renewed
--EXTENSIONS--
rlock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl'); ?>
--FILE--
<?php
require __DIR__ . '/../watchdog.inc';
/* the lease and the windows below, 10 times longer under valgrind: a watchdog that renews a
 * 300 ms lease every 100 ms misses it when the machine is that slow */
$slow = rlock_test_slow();
$o = rlock_test_options(['ttl' => 300 * $slow, 'watchdog' => true]);
$l = new RLock('parent', $o);
$l->tryLock();
$key = $l->key();
$done = sys_get_temp_dir() . '/rlock-phpt-210-' . getmypid();
@unlink($done);
$pid = pcntl_fork();
if ($pid === 0) {
    /* the child holds nothing of its parent's, and renews what it takes itself; it lives on
     * (holding, its watchdog running) until the parent's window below has passed */
    $mine = new RLock('child', $o);
    $ok = !$l->lost() && !$l->isAcquired() && $l->token() === null && $mine->tryLock();
    $start = microtime(true);
    for ($deadline = $start + 60 * $slow; !file_exists($done) && microtime(true) < $deadline;) {
        rlock_test_sleep(10);
    }
    rlock_test_sleep((int) max(0, 1200 * $slow - (microtime(true) - $start) * 1000));
    $ok = $ok && file_exists($done) && $mine->isAcquired() && $mine->unlock();
    exit($ok ? 0 : 1);
}
rlock_test_sleep(600 * $slow);
echo "parent still holds: ", var_export($l->isAcquired(), true), "\n";
$token = $l->token();
var_dump($l->unlock());
/* a key with the parent's token, while the child lives: nobody may renew it */
rlock_test_cmd('SET', $key, $token, 'PX', (string) (300 * $slow));
rlock_test_sleep(500 * $slow);
var_dump(rlock_test_cmd('EXISTS', $key));
echo "the child lived through it: ", var_export(rlock_test_alive($pid), true), "\n";
touch($done);
pcntl_waitpid($pid, $status);
unlink($done);
echo "child exit: ", rlock_test_exit($status), "\n";
?>
--EXPECT--
parent still holds: true
bool(true)
int(0)
the child lived through it: true
child exit: 0
