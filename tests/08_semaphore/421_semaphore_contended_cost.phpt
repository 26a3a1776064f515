--TEST--
RSemaphore: what a contended hand-over costs Redis: a waiter that queues behind a holder, is served by the holder's release, and releases in turn runs at most 40 commands (scripts' redis.call counted; 39 now, 55 before the semaphore's scripts were cut)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$srv = rlock_test_own_server();
$cmd = $srv['cmd'];
$o = ['server' => $srv['dsn'], 'ttl' => 60000];
$holder = new RSemaphore('cost', 1, $o);
var_dump($holder->acquire());
// found taken: the key is hot in this process (and in the child forked from it), whose
// acquire queues at once, as any waiter of a busy semaphore does
var_dump((new RSemaphore('cost', 1, $o))->tryAcquire());
$cmd('CONFIG', 'RESETSTAT');
$pid = pcntl_fork();
if ($pid === 0) {
    $w = new RSemaphore('cost', 1, $o);
    $got = $w->acquire(1, 10000 * $slow);
    exit($got && $w->release() ? 0 : 1);
}
$deadline = microtime(true) + 10 * $slow;
while ((int) substr(strstr($cmd('INFO', 'clients'), 'blocked_clients:'), 16) < 1) {
    if (microtime(true) > $deadline) {
        die("the child never blocked\n");
    }
    usleep(5000);
}
var_dump($holder->release());
pcntl_waitpid($pid, $status);
echo "child: ", rlock_test_exit($status), "\n";
// every command but the test's own INFOs and CONFIG
$n = 0;
foreach (explode("\n", $cmd('INFO', 'commandstats')) as $line) {
    if (preg_match('/^cmdstat_([a-z|]+):calls=(\d+)/', $line, $m) && !in_array($m[1], ['info', 'config'], true)) {
        $n += (int) $m[2];
    }
}
echo "at most 40 commands: ", var_export($n <= 40, true), ($n <= 40 ? '' : " ($n)"), "\n";
?>
--EXPECT--
bool(true)
bool(false)
bool(true)
child: 0
at most 40 commands: true
