--TEST--
spin_us: WAIT (sync_replicas), a command that waits for the replicas, is not spun for: its replies, always later than the spin, came between the acquire's, which the spin catches, so the back-off never began and each lock spun spin_us away for its WAIT
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available');
require_once __DIR__ . '/../config.inc';
// (a bound on CPU time means nothing under valgrind or the sanitizers: the plain lanes run it)
if (rlock_test_slow() > 1) die('skip CPU bound: not under valgrind or sanitizers'); ?>
--FILE--
<?php
require __DIR__ . '/../fake_redis.inc';
// the acquire and the release answered at once, WAIT 6 ms later (past a spin of 5 ms): one
// replica has the lock
$fake = rlock_fake_redis(function (array $argv) {
    $name = strtoupper($argv[0]);
    if ($name === 'WAIT') {
        usleep(6000);
        return ":1\r\n";
    }
    return $name === 'SET' ? "+OK\r\n" : ":1\r\n";
});
$cpu = function (): float {
    $r = getrusage();
    return ($r['ru_utime.tv_sec'] + $r['ru_stime.tv_sec']) * 1e3 + ($r['ru_utime.tv_usec'] + $r['ru_stime.tv_usec']) / 1e3;
};
// CPU ms of 100 lock + unlock cycles, and how many were answered (lock, WAIT, unlock)
$cycles = function (int $spin) use ($fake, $cpu): array {
    $ok = 0;
    $t = $cpu();
    for ($i = 0; $i < 100; $i++) {
        $l = new RLock("k$i", ['server' => $fake['dsn'], 'spin_us' => $spin, 'sync_replicas' => 1, 'reentrant' => false]);
        $ok += $l->tryLock() && $l->unlock();
        // (the fake reports each command to this process: read, or its pipe fills and it stalls)
        $fake['commands']();
    }
    return [$cpu() - $t, $ok];
};
[$still, $okStill] = $cycles(0);
[$spun, $okSpun] = $cycles(5000);
var_dump($okStill, $okSpun);
// spun for at every WAIT: up to 100 x 5 ms = 500 ms of CPU more; not spun for, the acquire's
// and the release's spins end as their replies come (at once). The bound leaves room for a
// loaded machine and valgrind's own noise.
$more = $spun - $still;
echo "CPU of the spins under 300 ms: ", var_export($more < 300, true), ($more < 300 ? '' : " ($more ms)"), "\n";
$fake['stop']();
?>
--EXPECT--
int(100)
int(100)
CPU of the spins under 300 ms: true
