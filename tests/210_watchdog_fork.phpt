--TEST--
watchdog: after fork() the child renews none of its parent's locks, the parent still does, and the child's own locks are renewed
--EXTENSIONS--
rlock
pcntl
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl'); ?>
--FILE--
<?php
require __DIR__ . '/watchdog.inc';
$o = rlock_test_options(['ttl' => 300, 'watchdog' => true]);
$l = new RLock('parent', $o);
$l->tryLock();
$key = $l->key();
$pid = pcntl_fork();
if ($pid === 0) {
    /* the child holds nothing of its parent's, and renews what it takes itself */
    $mine = new RLock('child', $o);
    $ok = !$l->lost() && !$l->isAcquired() && $l->token() === null && $mine->tryLock();
    rlock_test_sleep(1200);
    $ok = $ok && $mine->isAcquired() && $mine->unlock();
    exit($ok ? 0 : 1);
}
rlock_test_sleep(600);
echo "parent still holds: ", var_export($l->isAcquired(), true), "\n";
$token = $l->token();
var_dump($l->unlock());
/* a key with the parent's token, while the child lives: nobody may renew it */
rlock_test_cmd('SET', $key, $token, 'PX', '300');
rlock_test_sleep(500);
var_dump(rlock_test_cmd('EXISTS', $key));
pcntl_waitpid($pid, $status);
echo "child exit: ", pcntl_wexitstatus($status), "\n";
?>
--EXPECT--
parent still holds: true
bool(true)
int(0)
child exit: 0
