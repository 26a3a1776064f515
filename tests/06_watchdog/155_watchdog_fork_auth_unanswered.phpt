--TEST--
watchdog: fork() returns at once while the watchdog's thread waits for a server's answer to AUTH, and renewals go on after
--EXTENSIONS--
rlock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl'); ?>
--FILE--
<?php
require __DIR__ . '/../watchdog.inc';
require __DIR__ . '/../fake_redis.inc';
/* The request's connection is authenticated (command 0); the watchdog's AUTH never is. */
$fake = rlock_fake_redis(function (array $argv, int $n) {
    return match (strtoupper($argv[0])) {
        'AUTH' => $n === 0 ? "+OK\r\n" : null,
        'SET' => "+OK\r\n",
        default => ":1\r\n",
    };
});
$auths = fn () => count(array_filter(($fake['commands'])(), fn ($c) => strtoupper($c[0]) === 'AUTH'));
/* fork() in the parent: its ms, and whether the child ran */
function timed_fork(): array
{
    $t = hrtime(true);
    $pid = pcntl_fork();
    if ($pid === 0) {
        exit(0);
    }
    $ms = (hrtime(true) - $t) / 1e6;
    pcntl_waitpid($pid, $status);
    return [$ms, pcntl_wifexited($status) && pcntl_wexitstatus($status) === 0];
}

$dsn = str_replace('redis://', 'redis://:secret@', $fake['dsn']);
$l = new RLock('k', ['server' => $dsn, 'ttl' => 300, 'watchdog' => true, 'read_timeout' => 5000]);
var_dump($l->tryLock());
/* the watchdog falls due at 100 ms, connects and sends AUTH: the fake keeps it waiting */
$until = hrtime(true) + 10 * 1000000000;
while ($auths() < 2 && hrtime(true) < $until) {
    usleep(10000);
}
var_dump($auths() >= 2);
[$ms, $ok] = timed_fork();
echo "fork while AUTH waits: ", $ms < 1000 ? "prompt" : "took $ms ms", ", child ", $ok ? "ok" : "failed", "\n";
/* the parent's new thread tries again (and waits again): let go of the lock, fork again */
var_dump($l->unlock());
[$ms, $ok] = timed_fork();
echo "second fork: ", $ms < 1000 ? "prompt" : "took $ms ms", ", child ", $ok ? "ok" : "failed", "\n";
$fake['stop']();

/* a lock on the real server is renewed by the thread as ever */
$s = rlock_test_slow();
$r = new RLock('real', rlock_test_options(['ttl' => 300 * $s, 'watchdog' => true]));
var_dump($r->tryLock());
$from = rlock_test_info('Watchdog renewals');
$until = hrtime(true) + 10 * $s * 1000000000;
while (rlock_test_info('Watchdog renewals') < $from + 3 && hrtime(true) < $until) {
    usleep(10000);
}
var_dump(rlock_test_info('Watchdog renewals') >= $from + 3, $r->isAcquired(), rlock_test_cmd('GET', $r->key()) === $r->token());
var_dump($r->unlock());
?>
--EXPECT--
bool(true)
bool(true)
fork while AUTH waits: prompt, child ok
bool(true)
second fork: prompt, child ok
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
