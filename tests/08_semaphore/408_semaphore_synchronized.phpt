--TEST--
RSemaphore::synchronized(): $fn($this) runs holding the permits, its result is returned, its exception propagates after the release, RLockTimeoutException when not acquired, RLockLostException when the lease ended first
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options();
$s = new RSemaphore('sync', 3, $o);
var_dump($s->synchronized(fn (RSemaphore $me) => [$me->held(), $me->available()], 2));
var_dump($s->held(), $s->available());
try {
    $s->synchronized(function () { throw new LogicException('inside'); });
} catch (LogicException $e) {
    echo $e->getMessage(), ", released: ", $s->available(), "\n";
}
$other = new RSemaphore('sync', 3, $o);
$other->acquire(2);
try {
    $s->synchronized(fn () => 1, 2, 50);
} catch (RLockTimeoutException $e) {
    echo get_class($e), "\n";
}
$other->release();
$short = new RSemaphore('sync', 3, rlock_test_options(['ttl' => 100]));
try {
    // the lease ends while $fn runs (the time is what is tested)
    $short->synchronized(function () { usleep(250000); return 'late'; });
} catch (RLockLostException $e) {
    echo get_class($e), ": ", var_export($e->getResult(), true), "\n";
}
var_dump($short->held(), $s->available());
?>
--EXPECT--
array(2) {
  [0]=>
  int(2)
  [1]=>
  int(1)
}
int(0)
int(3)
inside, released: 3
RLockTimeoutException
RLockLostException: 'late'
int(0)
int(3)
