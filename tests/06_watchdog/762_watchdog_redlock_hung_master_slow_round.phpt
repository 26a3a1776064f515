--TEST--
watchdog with "servers" (Redlock): one master hung (SIGSTOP) with a read timeout longer than the lease; the other two masters' leases must not run out while the thread waits for the hung one, or else lost() must be true by the time another process can hold the lock: never another process inside while the owner's lock says it is held
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../watchdog.inc';
$s = rlock_test_slow();
$m = [rlock_test_own_server(), rlock_test_own_server(), rlock_test_own_server()];
$servers = array_column($m, 'dsn');
$ttl = 600 * $s;
$owner = new RLock('a', ['servers' => $servers, 'ttl' => $ttl, 'read_timeout' => 2000 * $s, 'watchdog' => true,
    'prefix' => 'f762:']);
var_dump($owner->tryLock());
$key = $owner->key();
$mine = $owner->token();
exec("kill -STOP {$m[2]['pid']}");

// another process tries all along (its own read timeout short, its lease long)
$pid = pcntl_fork();
if ($pid === 0) {
    $other = new RLock('a', ['servers' => $servers, 'ttl' => 60000 * $s, 'read_timeout' => 100 * $s, 'prefix' => 'f762:']);
    for ($deadline = hrtime(true) + 20e9 * $s; hrtime(true) < $deadline;) {
        if ($other->tryLock()) {
            rlock_test_sleep(20000 * $s);  // held till the test ends it
        }
    }
    exit(0);
}
// watched for four leases (its lease ran out in the first, before the fix): whenever A and B hold another token, the owner knows it lost
$both = 0;
for ($end = hrtime(true) + 4 * $ttl * 1e6; hrtime(true) < $end;) {
    $a = $m[0]['cmd']('GET', $key);
    $b = $m[1]['cmd']('GET', $key);
    $lost = $owner->lost();
    if (is_string($a) && is_string($b) && $a !== $mine && $b !== $mine && $a === $b && !$lost) {
        $both++;
    }
    rlock_test_sleep(5);
}
echo "another inside while the owner held: $both\n";
exec("kill -KILL $pid");
pcntl_waitpid($pid, $status);
exec("kill -CONT {$m[2]['pid']}");
?>
--EXPECT--
bool(true)
another inside while the owner held: 0
