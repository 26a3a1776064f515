--TEST--
Reentrant (the default): nested holds of one key in this process count, the outermost unlock releases
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$o = rlock_test_options(['fencing' => true]);

echo "same object:\n";
$l = new RLock('re', $o);
var_dump($l->lock(), $l->tryLock(), $l->lock(1000));
var_dump($l->unlock(), $l->unlock(), rlock_test_cmd('EXISTS', $l->key()));
var_dump($l->unlock(), rlock_test_cmd('EXISTS', $l->key()), $l->unlock());

echo "two objects:\n";
$a = new RLock('re', $o);
$b = new RLock('re', $o);
var_dump($a->lock());
$t = microtime(true);
var_dump($b->lock(30000));
echo "at once: ", var_export((microtime(true) - $t) * 1000 < 1000 * $slow, true), "\n";
var_dump($b->token() === $a->token(), $b->fencingToken() === $a->fencingToken());
var_dump($b->isAcquired());
var_dump($a->unlock());                // inner
var_dump(rlock_test_cmd('GET', $a->key()) === $b->token(), $b->isAcquired());
var_dump($b->unlock());                // outermost
var_dump(rlock_test_cmd('EXISTS', $a->key()));

echo "synchronized inside synchronized:\n";
$r = $a->synchronized(fn() => $b->synchronized(fn($inner) => $inner->isAcquired() ? 'nested' : 'no'));
var_dump($r, rlock_test_cmd('EXISTS', $a->key()));

echo "other keys, prefixes and servers are other locks:\n";
var_dump($a->lock());
$c = new RLock('re2', $o);
$d = new RLock('re', ['prefix' => 'rlock-test-043-other:'] + $o);
$e = new RLock('re', ['server' => RLOCK_TEST_DSN . '/2'] + $o);
var_dump($c->tryLock() && $c->token() !== $a->token(), $d->tryLock() && $d->token() !== $a->token(), $e->tryLock() && $e->token() !== $a->token());
var_dump($c->unlock(), $d->unlock(), $e->unlock(), $a->unlock());
$tag = fn (string $role) => rlock_test_companion($a->key(), $role);
rlock_test_cmd('DEL', $tag('fence'), rlock_test_companion($c->key(), 'fence'), rlock_test_companion($d->key(), 'fence'));
?>
--EXPECT--
same object:
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(1)
bool(true)
int(0)
bool(false)
two objects:
bool(true)
bool(true)
at once: true
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
synchronized inside synchronized:
string(6) "nested"
int(0)
other keys, prefixes and servers are other locks:
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
