--TEST--
Reentrancy: a nested acquire of a held key with a shorter ttl (lock(), tryLock(), synchronized()) never cuts the lease the outer hold has left: the key keeps it through the nested hold and after its release, until the outermost unlock; a nested acquire with a longer ttl starts the lease again at its own ttl
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$outer = new RLock('k', rlock_test_options(['ttl' => 60000]));
var_dump($outer->lock());
$pttl = fn () => rlock_test_cmd('PTTL', $outer->key());
$inner = new RLock('k', rlock_test_options(['ttl' => 1000]));
var_dump($inner->lock());
echo "nested lock() with ttl 1000: lease over 50 s: ", var_export($pttl() > 50000, true), "\n";
var_dump($inner->unlock());
echo "after its unlock: over 50 s: ", var_export($pttl() > 50000, true), "\n";
var_dump($inner->tryLock(), $inner->unlock());
echo "nested tryLock(): over 50 s: ", var_export($pttl() > 50000, true), "\n";
(new RLock('k', rlock_test_options(['ttl' => 500])))->synchronized(function () use ($pttl) {
    echo "inside a nested synchronized() with ttl 500: over 50 s: ", var_export($pttl() > 50000, true), "\n";
});
$longer = new RLock('k', rlock_test_options(['ttl' => 120000]));
var_dump($longer->lock());
echo "nested lock() with ttl 120000: over 100 s: ", var_export($pttl() > 100000, true), "\n";
var_dump($longer->unlock(), $outer->unlock());
echo "after the outermost unlock: ", rlock_test_cmd('EXISTS', $outer->key()), "\n";
?>
--EXPECT--
bool(true)
bool(true)
nested lock() with ttl 1000: lease over 50 s: true
bool(true)
after its unlock: over 50 s: true
bool(true)
bool(true)
nested tryLock(): over 50 s: true
inside a nested synchronized() with ttl 500: over 50 s: true
bool(true)
nested lock() with ttl 120000: over 100 s: true
bool(true)
bool(true)
after the outermost unlock: 0
