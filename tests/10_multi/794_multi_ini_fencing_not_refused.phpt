--TEST--
RLock::multi() under php.ini rlock.fencing=1 (the locks' default) is made and taken; a multi lock has no fencing token (fencingToken() null, never 0); "fencing" => true in its options is still refused
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
rlock.fencing=1
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options();
try {
    $m = RLock::multi(['a', 'b'], $o);
    echo "taken: ", json_encode([$m->tryLock(), $m->fencingToken(), $m->tryLock(), $m->fencingToken()]), "\n";
    echo "released: ", json_encode([$m->unlock(), $m->unlock(), $m->isLocked()]), "\n";
} catch (Throwable $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
// a plain lock takes the php.ini default: a token
$l = new RLock('a', $o);
echo "plain lock's token: ", json_encode([$l->tryLock(), $l->fencingToken() > 0, $l->unlock()]), "\n";
try {
    RLock::multi(['a', 'b'], ['fencing' => true] + $o);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
taken: [true,null,true,null]
released: [true,true,false]
plain lock's token: [true,true,true]
RLock::multi(): Argument #2 ($options) option "fencing" is not supported by RLock::multi()
