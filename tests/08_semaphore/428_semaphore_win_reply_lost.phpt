--TEST--
RSemaphore: a waiter whose connection drops right after its acquire script won (the BLPOP's reply lost) holds the permits it asked for, not twice as many
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
require __DIR__ . '/../cut_relay.inc';
$srv = rlock_test_own_server();
/* the script's win, {1, token, permits}, reaches the client; the reply to the BLPOP sent
 * with it (our own "1") does not: the connection drops */
$relay = rlock_cut_relay($srv['port'], function (string $chunk) {
    $at = strpos($chunk, "*3\r\n:1\r\n\$32\r\n");
    return $at === false ? null : strpos($chunk, "\r\n", $at + 14 + 32 + 2) + 2;
});
$holder = new RSemaphore('win-lost', 2, ['server' => $srv['dsn']]);
$waiter = new RSemaphore('win-lost', 2, ['server' => $relay['dsn'], 'retry_delay' => 20]);
var_dump($holder->acquire(2));
var_dump($waiter->tryAcquire(1));  // taken: the waiter's next acquire goes to the rounds at once
var_dump($holder->release());
var_dump($waiter->acquire(1, 5000));
var_dump(($relay['cut'])());
var_dump($waiter->held(), $holder->available());
?>
--EXPECT--
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
int(1)
int(1)
