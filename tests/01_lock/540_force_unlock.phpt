--TEST--
RLock::forceUnlock(): deletes the lock whoever holds it (true), false when nobody does; the holder finds it lost; the caller's own holds, nested ones included, are gone with it
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['ttl' => 20000]);
// another owner's lock, as another process leaves it: a token of its own in the key
$key = (new RLock('forced', $o))->key();
rlock_test_cmd('SET', $key, str_repeat('a', 32), 'PX', '20000');
$l = new RLock('forced', $o);
var_dump($l->tryLock(), $l->forceUnlock(), rlock_test_cmd('EXISTS', $key));
var_dump($l->forceUnlock());
// a holder in this process (another object: two owners) finds it lost
$holder = new RLock('forced', ['reentrant' => false] + $o);
var_dump($holder->lock(), (new RLock('forced', ['reentrant' => false] + $o))->forceUnlock());
var_dump($holder->isAcquired(), $holder->unlock(), $holder->lost());
// our own nested holds: all of them gone, nothing left to renew or release
$own = new RLock('forced', ['watchdog' => true] + $o);
var_dump($own->lock(), $own->lock(), $own->forceUnlock(), $own->token(), $own->unlock());
var_dump($own->lock(), $own->token() !== null, $own->unlock(), rlock_test_cmd('EXISTS', $key));
?>
--EXPECT--
bool(false)
bool(true)
int(0)
bool(false)
bool(true)
bool(true)
bool(false)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
NULL
bool(false)
bool(true)
bool(true)
bool(true)
int(0)
