--TEST--
RSemaphore: a tryAcquire() whose reply is lost after Redis took the permit costs nothing for good: the object's next acquire claims that permit once (held 1, not 2) and synchronized() gives every permit back
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
$s = new RSemaphore('lost-take', 2, ['server' => $relay['dsn']]);
$other = new RSemaphore('lost-take', 2, ['server' => $srv['dsn']]);
try {
    var_dump($s->tryAcquire(1));
} catch (RLockConnectionException $e) {
    echo get_class($e), "\n";
}
echo "cut: ", var_export(($relay['cut'])(), true), ", held ", $s->held(), ", available ", $other->available(), "\n";
// before: held 2, available 0 inside; held 1, available 1 after (the lost permit kept for good)
[$held, $free] = $s->synchronized(fn ($s) => [$s->held(), $other->available()], 1);
echo "inside: held $held, available $free\n";
echo "after: held ", $s->held(), ", available ", $other->available(), "\n";
// and the object goes on as any: one more take, one more give-back
var_dump($s->tryAcquire(2), $s->held(), $other->available(), $s->release(), $other->available());
?>
--EXPECT--
RLockConnectionException
cut: true, held 0, available 1
inside: held 1, available 1
after: held 0, available 2
bool(true)
int(2)
int(0)
bool(true)
int(2)
