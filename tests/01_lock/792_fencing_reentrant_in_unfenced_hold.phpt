--TEST--
Fencing: a reentrant 'fencing' => true acquire inside a hold the context took without fencing (or restored) is an RLockException at once, never a fencing token of 0; the hold stays as it was. A restored hold's token is unknown: null, not 0. Inside a fenced hold it gets that hold's token, and a lock without fencing nested in it has none; the read-write lock's sides alike
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['ttl' => 30000 * rlock_test_slow()]);
$prefix = $o['prefix'];
$try = function (string $what, callable $fn) use ($prefix) {
    try {
        $got = json_encode($fn());
    } catch (RLockException $e) {
        $got = get_class($e) . ': ' . str_replace($prefix, 'PREFIX:', $e->getMessage());
    }
    echo "$what: $got\n";
};

$plain = new RLock('k', $o);
$fenced = new RLock('k', ['fencing' => true] + $o);
var_dump($plain->lock());
$try('fencing lock() in an unfenced hold', fn () => [$fenced->lock(), $fenced->fencingToken()]);
$try('tryLock()', fn () => [$fenced->tryLock(), $fenced->fencingToken()]);
$try('synchronized()', fn () => $fenced->synchronized(fn (RLock $l) => $l->fencingToken()));
echo "the outer hold as it was: ", json_encode([$plain->isAcquired(), $fenced->isAcquired(), $plain->unlock(), $plain->isLocked()]), "\n";

// a fenced hold: a nested fencing acquire is the same holder, with the same token; an unfenced
// one nested in it has none
var_dump($fenced->lock());
$token = $fenced->fencingToken();
echo "a token: ", var_export($token > 0, true), "\n";
$again = new RLock('k', ['fencing' => true] + $o);
$try('fencing in a fenced hold, the same token', fn () => [$again->lock(), $again->fencingToken() === $token]);
$try('unfenced in a fenced hold', fn () => [$plain->lock(), $plain->fencingToken()]);
echo "released: ", json_encode([$plain->unlock(), $again->unlock(), $fenced->unlock(), $fenced->isLocked()]), "\n";
// the next holder's token is past it
var_dump($fenced->lock(), $fenced->fencingToken() > $token, $fenced->unlock());

// a restored hold has no token of its own: no fencing acquire re-enters it either
$holder = new RLock('r', $o);
$holder->lock();
$restored = new RLock('r', ['fencing' => true] + $o);
var_dump($restored->restore($holder->token()));
echo "a restored hold's token: ", json_encode($restored->fencingToken()), "\n";
$try('fencing in a restored hold', fn () => (new RLock('r', ['fencing' => true] + $o))->lock());
var_dump($restored->unlock());

// the read-write lock's sides
$rw = new RReadWriteLock('rw', $o);
$frw = new RReadWriteLock('rw', ['fencing' => true] + $o);
foreach (['write' => 'writeLock', 'read' => 'readLock'] as $side => $get) {
    var_dump($rw->$get()->lock());
    $try("fencing $side in an unfenced $side hold", fn () => [$frw->$get()->lock(), $frw->$get()->fencingToken()]);
    var_dump($rw->$get()->unlock());
}
var_dump($frw->writeLock()->lock());
$w = $frw->writeLock()->fencingToken();
$try('fencing write in a fenced write hold, the same token', fn () => [$frw->writeLock()->lock(), $frw->writeLock()->fencingToken() === $w]);
var_dump($frw->writeLock()->unlock(), $frw->writeLock()->unlock());
?>
--EXPECT--
bool(true)
fencing lock() in an unfenced hold: RLockException: Cannot re-enter the lock "PREFIX:k" with "fencing": the calling context (this Fiber, or the main flow) holds it already through a hold that has no fencing token (taken without "fencing", or restored), and a token issued inside it would not fence what it did before; take the outermost hold with "fencing" => true
tryLock(): RLockException: Cannot re-enter the lock "PREFIX:k" with "fencing": the calling context (this Fiber, or the main flow) holds it already through a hold that has no fencing token (taken without "fencing", or restored), and a token issued inside it would not fence what it did before; take the outermost hold with "fencing" => true
synchronized(): RLockException: Cannot re-enter the lock "PREFIX:k" with "fencing": the calling context (this Fiber, or the main flow) holds it already through a hold that has no fencing token (taken without "fencing", or restored), and a token issued inside it would not fence what it did before; take the outermost hold with "fencing" => true
the outer hold as it was: [true,false,true,false]
bool(true)
a token: true
fencing in a fenced hold, the same token: [true,true]
unfenced in a fenced hold: [true,null]
released: [true,true,true,false]
bool(true)
bool(true)
bool(true)
bool(true)
a restored hold's token: null
fencing in a restored hold: RLockException: Cannot re-enter the lock "PREFIX:r" with "fencing": the calling context (this Fiber, or the main flow) holds it already through a hold that has no fencing token (taken without "fencing", or restored), and a token issued inside it would not fence what it did before; take the outermost hold with "fencing" => true
bool(true)
bool(true)
fencing write in an unfenced write hold: RLockException: Cannot re-enter the write lock "PREFIX:rw" with "fencing": the calling context (this Fiber, or the main flow) holds it already through a hold that has no fencing token (taken without "fencing", or restored), and a token issued inside it would not fence what it did before; take the outermost hold with "fencing" => true
bool(true)
bool(true)
fencing read in an unfenced read hold: RLockException: Cannot re-enter the read lock "PREFIX:rw" with "fencing": the calling context (this Fiber, or the main flow) holds it already through a hold that has no fencing token (taken without "fencing", or restored), and a token issued inside it would not fence what it did before; take the outermost hold with "fencing" => true
bool(true)
bool(true)
fencing write in a fenced write hold, the same token: [true,true]
bool(true)
bool(true)
