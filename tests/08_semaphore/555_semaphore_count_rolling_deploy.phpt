--TEST--
RSemaphore: a rolling deploy that changes the permit count (old and new processes at once) never admits more than the smallest count in use, either way, and the new count applies as soon as the last holder of the old one leaves
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options();
// 5 -> 10: an old process holds 2
$old = new RSemaphore('deploy-up', 5, $o);
$new = [new RSemaphore('deploy-up', 10, $o), new RSemaphore('deploy-up', 10, $o)];
var_dump($old->tryAcquire(2));
// before: 8 more admitted (10 held)
var_dump($new[0]->tryAcquire(3), $new[1]->tryAcquire(1), $new[0]->available());
var_dump($old->release(), $new[1]->tryAcquire(7), $new[1]->available());
var_dump($new[0]->release(), $new[1]->release());
// 10 -> 5: a new process holds 6 of 10; an old one (5) finds nothing free until 1 is left
$new = new RSemaphore('deploy-down', 10, $o);
$more = new RSemaphore('deploy-down', 10, $o);
$old = new RSemaphore('deploy-down', 5, $o);
var_dump($new->tryAcquire(6), $old->tryAcquire(1), $old->available(), $new->release());
var_dump($more->tryAcquire(4), $old->tryAcquire(1), $old->available());
// with the old count's holder in, the new processes keep to 5 too
var_dump($new->tryAcquire(1), $new->available(), $more->release(), $old->release());
var_dump(rlock_test_cmd('KEYS', $o['prefix'] . '*'));
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
int(0)
bool(true)
bool(true)
int(0)
bool(true)
bool(true)
bool(true)
bool(false)
int(0)
bool(true)
bool(true)
bool(true)
int(0)
bool(false)
int(0)
bool(true)
bool(true)
array(0) {
}
