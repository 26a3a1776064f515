--TEST--
RSemaphore: release() after a tryAcquire() whose reply was lost asks Redis, and gives back the permit Redis took under the object's token (true); before, it answered false without asking and the permit stayed taken
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
$s = new RSemaphore('lost-release', 2, ['server' => $relay['dsn']]);
$other = new RSemaphore('lost-release', 2, ['server' => $srv['dsn']]);
try {
    var_dump($s->tryAcquire(1));
} catch (RLockConnectionException $e) {
    echo get_class($e), "\n";
}
echo "cut: ", var_export(($relay['cut'])(), true), ", held ", $s->held(), ", available ", $other->available(), "\n";
var_dump($s->release(), $s->held(), $other->available());
// asked once: nothing is left to give back
var_dump($s->release(), ($srv['cmd'])('DBSIZE'));
?>
--EXPECT--
RLockConnectionException
cut: true, held 0, available 1
bool(true)
int(0)
int(2)
bool(false)
int(0)
