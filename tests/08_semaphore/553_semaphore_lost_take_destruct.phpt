--TEST--
RSemaphore: an object whose tryAcquire() reply was lost (Redis took the permit) gives that permit back when it is destroyed, as it would a permit it knew it held; before, the permit stayed taken for its whole lease
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
$s = new RSemaphore('lost-destruct', 2, ['server' => $relay['dsn'], 'ttl' => 60000]);
$other = new RSemaphore('lost-destruct', 2, ['server' => $srv['dsn']]);
try {
    var_dump($s->tryAcquire(1));
} catch (RLockConnectionException $e) {
    echo get_class($e), "\n";
}
echo "cut: ", var_export(($relay['cut'])(), true), ", held ", $s->held(), ", available ", $other->available(), "\n";
unset($s);
var_dump($other->available(), ($srv['cmd'])('DBSIZE'));
?>
--EXPECT--
RLockConnectionException
cut: true, held 0, available 1
int(2)
int(0)
