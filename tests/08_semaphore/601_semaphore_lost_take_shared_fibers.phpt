--TEST--
RSemaphore: one object shared by two Fibers, one of which loses a tryAcquire() reply (Redis took the permit): the other's acquire through the object leaves that Fiber's unanswered acquire its own, settled by its next call (claimed once) and its release(), and every permit comes back
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
$s = new RSemaphore('lost-shared', 3, ['server' => $relay['dsn'], 'ttl' => 60000]);
$other = new RSemaphore('lost-shared', 3, ['server' => $srv['dsn']]);
$a = new Fiber(function () use ($s, $relay, $other) {
    try {
        var_dump($s->tryAcquire(1));
    } catch (RLockConnectionException $e) {
        echo "A: ", get_class($e), "\n";
    }
    echo "A cut: ", var_export(($relay['cut'])(), true), ", held ", $s->held(), ", available ", $other->available(), "\n";
    Fiber::suspend();
    // the same count again: the lost acquire sent again, claimed once
    echo "A tryAcquire: ", var_export($s->tryAcquire(1), true), ", held ", $s->held(), ", available ", $other->available(), "\n";
    echo "A release: ", var_export($s->release(), true), "\n";
});
$b = new Fiber(function () use ($s, $other) {
    echo "B tryAcquire: ", var_export($s->tryAcquire(1), true), ", held ", $s->held(), ", available ", $other->available(), "\n";
    Fiber::suspend();
    echo "B release: ", var_export($s->release(), true), "\n";
});
$a->start();
$b->start();
$a->resume();
$b->resume();
echo "available ", $other->available(), "\n";
unset($s);
var_dump(($srv['cmd'])('DBSIZE'));
?>
--EXPECT--
A: RLockConnectionException
A cut: true, held 0, available 2
B tryAcquire: true, held 1, available 1
A tryAcquire: true, held 1, available 1
A release: true
B release: true
available 3
int(0)
