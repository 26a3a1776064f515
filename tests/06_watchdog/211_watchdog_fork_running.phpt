--TEST--
watchdog: fork() while the thread renews: every child renews a lock of its own and exits, and the parent's lock is renewed throughout
--EXTENSIONS--
rlock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl'); ?>
--FILE--
<?php
require __DIR__ . '/../watchdog.inc';
/* Renewals until the thread has done $n more than $from, within 10 s. */
function await_renewals(int $from, int $n): bool
{
    $until = hrtime(true) + 10 * 1000000000;
    while (rlock_test_info('Watchdog renewals') < $from + $n) {
        if (hrtime(true) > $until) {
            return false;
        }
        usleep(10000);
    }
    return true;
}
$o = rlock_test_options(['ttl' => 600, 'watchdog' => true]);
$l = new RLock('parent', $o);
var_dump($l->tryLock(), await_renewals(0, 1));
$exits = [];
for ($i = 0; $i < 10; $i++) {
    /* each fork finds the thread running: it renews every 200 ms */
    $pid = pcntl_fork();
    if ($pid === 0) {
        $mine = new RLock("child$i", $o);
        $ok = $mine->tryLock() && await_renewals(rlock_test_info('Watchdog renewals'), 1)
            && $mine->isAcquired() && $mine->unlock();
        exit($ok ? 0 : 1);
    }
    pcntl_waitpid($pid, $status);
    $exits[] = pcntl_wifexited($status) ? pcntl_wexitstatus($status) : -1;
}
echo "child exits: ", implode(' ', $exits), "\n";
$renewals = rlock_test_info('Watchdog renewals');
var_dump(await_renewals($renewals, 2), $l->isAcquired(), rlock_test_cmd('GET', $l->key()) === $l->token());
var_dump($l->unlock());
?>
--EXPECT--
bool(true)
bool(true)
child exits: 0 0 0 0 0 0 0 0 0 0
bool(true)
bool(true)
bool(true)
bool(true)
