--TEST--
spin_us: the spin for a reply stops at the exchange's deadline, as the sleep it stands for would: after a handshake that took nearly all of read_timeout, a reply 7 ms past the deadline is a read timeout (it was taken, caught by a spin of 10 ms begun before the deadline)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available');
// (a margin of 7 ms means nothing under valgrind or the sanitizers, 4 to 50 times slower: a
// reply's handling there can take the whole margin. The plain lanes run it.)
if (rlock_test_slow() > 1) die('skip 7 ms margins: not under valgrind or sanitizers'); ?>
--FILE--
<?php
require __DIR__ . '/../fake_redis.inc';
// AUTH answered 298 ms after it came (the deadline: 300 ms after the write), the SET 9 ms
// after that: within a spin of 10 ms begun at the AUTH's reply, past the deadline. (An AUTH
// later than the deadline on a loaded machine times out too: "AUTH failed: read timed out".)
$fake = rlock_fake_redis(function (array $argv) {
    if (strtoupper($argv[0]) === 'AUTH') {
        usleep(298000);
        return "+OK\r\n";
    }
    usleep(9000);
    return strtoupper($argv[0]) === 'SET' ? "+OK\r\n" : ":1\r\n";
});
// Five tries, each on a connection of its own: a spin that ran past the deadline took the
// late reply in 4 runs of 5; one that stops there times out but when the machine's load
// stops this process for over 7 ms right at its end. At least 3 timeouts of 5: a false
// failure about once in 3,000 runs on a loaded machine, the fault found in 94 of 100.
$timeouts = 0;
for ($i = 0; $i < 5; $i++) {
    $l = new RLock('k', ['server' => "redis://:secret@{$fake['addr']}", 'read_timeout' => 300, 'spin_us' => 10000,
        'persistent' => false]);
    try {
        $l->tryLock();
    } catch (RLockConnectionException $e) {
        $m = $e->getMessage();
        if (str_ends_with($m, ': read timed out')) {
            $timeouts++;
        } else {
            echo get_class($e), ': ', $m, "\n";
        }
    }
    $fake['commands']();
}
echo "read timed out at least 3 times of 5: ", var_export($timeouts >= 3, true), " ($timeouts)\n";
$fake['stop']();
?>
--EXPECTF--
read timed out at least 3 times of 5: true (%d)
