--TEST--
RSemaphore: held() is Redis' count after an acquire: permits whose lease ended (no watchdog) are not counted again
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$s = new RSemaphore('held', 1, rlock_test_options(['ttl' => 200]));
var_dump($s->acquire(), $s->held());
// our lease ends, and Redis gives the permit back
$deadline = microtime(true) + 5 * $slow;
while ($s->available() !== 1) {
    if (microtime(true) > $deadline) {
        die("the lease never ended\n");
    }
    usleep(10000);
}
var_dump($s->acquire(), $s->held(), $s->available());
var_dump($s->release(), $s->held(), $s->available());
?>
--EXPECT--
bool(true)
int(1)
bool(true)
int(1)
int(0)
bool(true)
int(0)
int(1)
