--TEST--
watchdog with "servers" (Redlock): unlock() while the watchdog's round is under way (its batches built, the one to a hung master C held up by the thread's connect there) releases the lock on A and B; the renewals the thread sends them afterwards find the key gone and do not leave it taken again (a heal for a lock let go meanwhile is given back), so another process gets it at once
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../watchdog.inc';
$s = rlock_test_slow();
$m = [rlock_test_own_server(), rlock_test_own_server()];
// master C: accepts connections (the kernel does) and never answers, as a hung server; its
// database makes a new connection wait for SELECT's reply, so the thread, which sends to C
// first (the last master), writes A's and B's renewals only a read timeout after it connected
$hung = stream_socket_server('tcp://127.0.0.1:0');
$c = 'redis://' . stream_socket_get_name($hung, false) . '/1';
$l = new RLock('a', ['servers' => [$m[0]['dsn'], $m[1]['dsn'], $c], 'ttl' => 9000 * $s, 'read_timeout' => 500 * $s,
    'watchdog' => true, 'prefix' => 'f761:']);
var_dump($l->tryLock());
$key = $l->key();
// this process' own connection to C, from the acquire
while (($conn = @stream_socket_accept($hung, 0)) !== false) {
    $ours[] = $conn;
}
$trips = rlock_test_info('Watchdog round trips');
// the thread connects to C at its first round (a third of the lease): under way now
$thread = stream_socket_accept($hung, 9 * $s);
var_dump($thread !== false);
var_dump($l->unlock());
// the round is done once A's and B's replies are counted (awaited, with a deadline)
for ($deadline = hrtime(true) + 5e9 * $s; rlock_test_info('Watchdog round trips') < $trips + 2 && hrtime(true) < $deadline;) {
    rlock_test_sleep(10);
}
var_dump(rlock_test_info('Watchdog round trips') - $trips >= 2);
// no master holds it for the lock let go (awaited: far less than the 9 s lease)
$held = fn () => $m[0]['cmd']('EXISTS', $key) + $m[1]['cmd']('EXISTS', $key);
for ($deadline = hrtime(true) + 3e9 * $s; $held() > 0 && hrtime(true) < $deadline;) {
    rlock_test_sleep(10);
}
var_dump($held());
$pid = pcntl_fork();
if ($pid === 0) {
    $other = new RLock('a', ['servers' => [$m[0]['dsn'], $m[1]['dsn'], $c], 'read_timeout' => 500 * $s, 'prefix' => 'f761:']);
    exit($other->tryLock() ? 0 : 1);
}
pcntl_waitpid($pid, $status);
var_dump(pcntl_wexitstatus($status));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
int(0)
