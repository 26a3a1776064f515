--TEST--
An RLock cannot be cloned, serialized, constructed twice or given dynamic properties
--EXTENSIONS--
rlock
--FILE--
<?php
$l = new RLock('k');
$tries = [
    'clone' => fn() => clone $l,
    'serialize' => fn() => serialize($l),
    'unserialize' => fn() => unserialize('O:5:"RLock":0:{}'),
    'construct twice' => fn() => $l->__construct('other'),
    'dynamic property' => function () use ($l) { $l->key = 'x'; },
];
foreach ($tries as $what => $try) {
    try {
        $try();
        echo "$what: allowed\n";
    } catch (Throwable $e) {
        echo "$what: ", get_class($e), ': ', $e->getMessage(), "\n";
    }
}
var_dump($l->key());
?>
--EXPECT--
clone: Error: Trying to clone an uncloneable object of class RLock
serialize: Exception: Serialization of 'RLock' is not allowed
unserialize: Exception: Unserialization of 'RLock' is not allowed
construct twice: RLockException: Cannot call RLock::__construct() twice
dynamic property: Error: Cannot create dynamic property RLock::$key
string(7) "rlock:k"
