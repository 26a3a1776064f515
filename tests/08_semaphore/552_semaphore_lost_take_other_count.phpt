--TEST--
RSemaphore: an acquire for another count than a lost one (its reply dropped after Redis took 1 permit) takes what it asks, once: the lost permit goes back first (tryAcquire(2) of 2 true, held 2); before, the lost permit stayed and tryAcquire(2) found only 1 free
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
$srv = rlock_test_own_server();
// the acquire script's win, {1, token, permits}, never reaches the client: the connection drops
$relay = rlock_cut_relay($srv['port'], fn (string $chunk) => strpos($chunk, "*3\r\n:1\r\n\$32\r\n") === false ? null : 0, true);
$s = new RSemaphore('lost-count', 2, ['server' => $relay['dsn']]);
$other = new RSemaphore('lost-count', 2, ['server' => $srv['dsn']]);
try {
    var_dump($s->tryAcquire(1));
} catch (RLockConnectionException $e) {
    echo get_class($e), "\n";
}
echo "cut: ", var_export(($relay['cut'])(), true), ", held ", $s->held(), ", available ", $other->available(), "\n";
var_dump($s->tryAcquire(2), $s->held(), $other->available());
var_dump($s->release(), $other->available(), ($srv['cmd'])('DBSIZE'));
?>
--EXPECT--
RLockConnectionException
cut: true, held 0, available 1
bool(true)
int(2)
int(0)
bool(true)
int(2)
int(0)
