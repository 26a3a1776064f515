--TEST--
Keys are binary-safe: NUL bytes, UTF-8, braces and a NUL in the prefix are kept byte for byte
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['reentrant' => false]);
$keys = ["a\0b", "a\0c", "a", "\0", "замок-🔒-鎖", "orders{42}", "{}", "x\r\ny", "\xff\xfe invalid utf-8"];
$locks = [];
foreach ($keys as $k) {
    $l = new RLock($k, $o);
    $ok = $l->key() === $o['prefix'] . $k && $l->tryLock() && rlock_test_cmd('GET', $o['prefix'] . $k) === $l->token();
    echo bin2hex($k), ': ', var_export($ok, true), "\n";
    $locks[] = $l;
}
// each is a lock of its own: a second holder fails on every one of them
$busy = 0;
foreach ($keys as $k) {
    $busy += (new RLock($k, $o))->tryLock() ? 0 : 1;
}
var_dump($busy === count($keys));
foreach ($locks as $l) {
    $ok = $l->isAcquired() && $l->ttl() > 0 && $l->extend(5000) && $l->unlock() && !$l->isLocked();
    if (!$ok) {
        echo "failed on ", bin2hex($l->key()), "\n";
    }
}
// static release and synchronized with such keys
$l = new RLock("a\0b", $o);
$l->lock();
var_dump(RLock::release("a\0c", $l->token(), $o), RLock::release("a\0b", $l->token(), $o));
var_dump($l->synchronized(fn($me) => bin2hex($me->key()) === bin2hex($o['prefix'] . "a\0b")));

// a prefix with a NUL byte
$p = new RLock('k', ['prefix' => "p\0q:"] + $o);
var_dump($p->key() === "p\0q:k", $p->tryLock(), rlock_test_cmd('EXISTS', "p\0q:k"), rlock_test_cmd('EXISTS', 'p'), $p->unlock());
?>
--EXPECT--
610062: true
610063: true
61: true
00: true
d0b7d0b0d0bcd0bed0ba2df09f94922de98e96: true
6f72646572737b34327d: true
7b7d: true
780d0a79: true
fffe20696e76616c6964207574662d38: true
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
int(1)
int(0)
bool(true)
