--TEST--
RSemaphore: a release serves the queue within the smallest count its holders named: a 4-permit waiter for 2 behind holders of 4 and 2 permits is not served when the 4-permit holder leaves (3 held of the 2-permit holder's 2), only when the 2-permit holder does
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$srv = rlock_test_own_server();
$o = ['server' => $srv['dsn']];
$four = new RSemaphore('mixed', 4, $o);
$two = new RSemaphore('mixed', 2, $o);
var_dump($four->tryAcquire(1), $two->tryAcquire(1));
$out = tempnam(sys_get_temp_dir(), 'rlock-phpt-556-');
$pid = pcntl_fork();
if ($pid === 0) {
    $waiter = new RSemaphore('mixed', 4, $o);
    $got = $waiter->acquire(2, 10000 * $slow);
    file_put_contents($out, var_export($got, true) . ', held ' . $waiter->held());
    exit(0);
}
// before: the waiter took its 2 at once (4 held while the 2-permit holder held)
$deadline = microtime(true) + 10 * $slow;
while ((int) substr(strstr(($srv['cmd'])('INFO', 'clients'), 'blocked_clients:'), 16) < 1) {
    if (microtime(true) > $deadline) {
        break;
    }
    usleep(5000);
}
echo "waiter queued: ", var_export(microtime(true) <= $deadline, true), "\n";
// the release serves nobody: 1 held, of the 2 the holder left named
var_dump($four->release(), (new RSemaphore('mixed', 4, $o))->available(), file_get_contents($out));
var_dump($two->release());
pcntl_waitpid($pid, $status);
echo "waiter: ", rlock_test_exit($status), ', ', file_get_contents($out), "\n";
unlink($out);
?>
--EXPECT--
bool(true)
bool(true)
waiter queued: true
bool(true)
int(1)
string(0) ""
bool(true)
waiter: 0, true, held 2
