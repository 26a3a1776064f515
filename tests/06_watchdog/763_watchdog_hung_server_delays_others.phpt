--TEST--
watchdog: a lock on a server that hangs (SIGSTOP) with a read timeout longer than another lock's lease must not hold up that other lock's renewals on a healthy server until its lease runs out: never another process inside the other lock while its owner's lost() is false
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../watchdog.inc';
$s = rlock_test_slow();
$x = rlock_test_own_server();
$y = rlock_test_own_server();
$ttl = 600 * $s;
$short = new RLock('a', ['server' => $x['dsn'], 'ttl' => $ttl, 'watchdog' => true, 'prefix' => 'f763:']);
$long = new RLock('b', ['server' => $y['dsn'], 'ttl' => 1500 * $s, 'read_timeout' => 3000 * $s, 'watchdog' => true,
    'prefix' => 'f763:']);
var_dump($short->tryLock(), $long->tryLock());
$key = $short->key();
$mine = $short->token();
exec("kill -STOP {$y['pid']}");

// another process tries the short-lease lock all along
$pid = pcntl_fork();
if ($pid === 0) {
    $other = new RLock('a', ['server' => $x['dsn'], 'ttl' => 60000 * $s, 'prefix' => 'f763:']);
    for ($deadline = hrtime(true) + 20e9 * $s; hrtime(true) < $deadline;) {
        if ($other->tryLock()) {
            rlock_test_sleep(20000 * $s);  // held till the test ends it
        }
        rlock_test_sleep(5);
    }
    exit(0);
}
$both = 0;
for ($end = hrtime(true) + 4 * $ttl * 1e6; hrtime(true) < $end;) {
    $v = $x['cmd']('GET', $key);
    if (is_string($v) && $v !== $mine && !$short->lost()) {
        $both++;
    }
    rlock_test_sleep(5);
}
echo "another inside while the owner held: $both\n";
exec("kill -KILL $pid");
pcntl_waitpid($pid, $status);
exec("kill -CONT {$y['pid']}");
?>
--EXPECT--
bool(true)
bool(true)
another inside while the owner held: 0
