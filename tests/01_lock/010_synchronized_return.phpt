--TEST--
synchronized($fn) holds the lock while $fn($this) runs, releases it, and returns what $fn returned
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$l = new RLock('sync', rlock_test_options());
$r = $l->synchronized(function ($lock) use ($l) {
    var_dump($lock === $l);
    var_dump($lock->isAcquired());
    var_dump(rlock_test_cmd('GET', $lock->key()) === $lock->token());
    return ['answer' => 42];
});
var_dump($r);
var_dump(rlock_test_cmd('EXISTS', $l->key()), $l->token());

// any return type comes back as it was, null included
var_dump($l->synchronized(fn() => null));
var_dump($l->synchronized(function () {}));
$obj = new stdClass;
var_dump($l->synchronized(fn() => $obj) === $obj);
var_dump($l->synchronized('get_class'));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
array(1) {
  ["answer"]=>
  int(42)
}
int(0)
NULL
NULL
NULL
bool(true)
string(5) "RLock"
