--TEST--
spin_us: a server whose replies come later than the spin is not spun for at every call: after a miss the connection spins for one reply in 2, 4, ... (the CPU a spin burns stays bounded), and every call still gets its reply
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
// every reply 3 ms late: past a spin of 2 ms, each one a miss
$fake = rlock_fake_redis(function (array $argv) {
    usleep(3000);
    return strtoupper($argv[0]) === 'SET' ? "+OK\r\n" : ":1\r\n";
});
$cpu = function (): float {
    $r = getrusage();
    return ($r['ru_utime.tv_sec'] + $r['ru_stime.tv_sec']) * 1e3 + ($r['ru_utime.tv_usec'] + $r['ru_stime.tv_usec']) / 1e3;
};
// CPU ms of 200 lock + unlock cycles (400 replies), and whether each cycle was answered
$cycles = function (int $spin) use ($fake, $cpu): array {
    $ok = 0;
    $t = $cpu();
    for ($i = 0; $i < 200; $i++) {
        $l = new RLock("k$i", ['server' => $fake['dsn'], 'spin_us' => $spin, 'reentrant' => false]);
        $ok += $l->tryLock() && $l->unlock();
        // (the fake reports each command to this process: read, or its pipe fills and it stalls)
        $fake['commands']();
    }
    return [$cpu() - $t, $ok];
};
[$still, $okStill] = $cycles(0);
[$spun, $okSpun] = $cycles(2000);
var_dump($okStill, $okSpun);
// spun for at every reply, 400 x 2 ms = 800 ms of CPU more; with the back-off about 9 spins
// (replies 1, 3, 7, ... of the connection), 18 ms. The bound, half the first, leaves room for
// a loaded machine and valgrind's own noise.
$more = $spun - $still;
echo "CPU of the spins under 400 ms: ", var_export($more < 400, true), ($more < 400 ? '' : " ($more ms)"), "\n";
$fake['stop']();
?>
--EXPECT--
int(200)
int(200)
CPU of the spins under 400 ms: true
