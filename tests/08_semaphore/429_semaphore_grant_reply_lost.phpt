--TEST--
RSemaphore: a waiter whose connection drops as its BLPOP pops a grant (the reply lost) holds the permits it asked for, not twice as many
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
require __DIR__ . '/../cut_relay.inc';
$slow = rlock_test_slow();
$srv = rlock_test_own_server();
// the grant, "g <permits>" popped by the waiter's BLPOP, never reaches it
$relay = rlock_cut_relay($srv['port'], fn (string $chunk) => strpos($chunk, "\r\n\$3\r\ng ") === false ? null : 0);
$holder = new RSemaphore('grant-lost', 2, ['server' => $srv['dsn']]);
var_dump($holder->acquire(2));
$out = tempnam(sys_get_temp_dir(), 'rlock-phpt-429-');
$pid = pcntl_fork();
if ($pid === 0) {
    $waiter = new RSemaphore('grant-lost', 2, ['server' => $relay['dsn'], 'retry_delay' => 20]);
    try {
        $got = var_export($waiter->acquire(1, 10000 * $slow), true) . ', held ' . $waiter->held()
            . ', available ' . $waiter->available();
    } catch (RLockException $e) {
        $got = get_class($e) . ': ' . $e->getMessage();
    }
    file_put_contents($out, $got);
    exit(0);
}
$deadline = microtime(true) + 10 * $slow;
while ((int) substr(strstr(($srv['cmd'])('INFO', 'clients'), 'blocked_clients:'), 16) < 1) {
    if (microtime(true) > $deadline) {
        die("the waiter never blocked\n");
    }
    usleep(5000);
}
var_dump($holder->release());
pcntl_waitpid($pid, $status);
var_dump(($relay['cut'])());
echo "waiter: ", file_get_contents($out), "\n";
unlink($out);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
waiter: true, held 1, available 1
