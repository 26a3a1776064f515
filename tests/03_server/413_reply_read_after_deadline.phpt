--TEST--
A reply that arrived while the process was stopped past its read deadline is read, not reported as a read timeout
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
$o = rlock_test_options(['ttl' => 20000]);
$a = new RSemaphore('stopped', 1, $o);
var_dump($a->acquire());
$h = rlock_test_companion($o['prefix'] . 'stopped', 'semaphore');

[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = pcntl_fork();
if ($pid === 0) {
    fclose($mine);
    // its BLPOP's read deadline: the wait (300 ms) and read_timeout (100 ms) from now
    $w = new RSemaphore('stopped', 1, $o + ['read_timeout' => 100 * $slow]);
    try {
        $got = var_export($w->acquire(1, 300 * $slow), true);
    } catch (Throwable $e) {
        $got = get_class($e) . ': ' . $e->getMessage();
    }
    fwrite($theirs, "$got\n");
    exit(0);
}
fclose($theirs);
$deadline = microtime(true) + 10 * $slow;
while (rlock_test_cmd('LLEN', "$h-queue") !== 1
        || !preg_match('/^blocked_clients:[1-9]/m', rlock_test_cmd('INFO', 'clients'))) {
    if (microtime(true) > $deadline) {
        die("the child never queued\n");
    }
    usleep(5000);
}
// the child stopped (a CPU starved or swapping host) while its grant arrives, until its
// read deadline has passed: the grant is in its socket when it runs again
exec("kill -STOP $pid");
var_dump($a->release());
usleep(600000 * $slow);
exec("kill -CONT $pid");
echo "child: ", fgets($mine);
pcntl_waitpid($pid, $status);
var_dump(rlock_test_exit($status));
?>
--EXPECT--
bool(true)
bool(true)
child: true
int(0)
