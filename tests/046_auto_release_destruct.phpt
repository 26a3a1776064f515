--TEST--
auto_release (default on): an RLock destroyed while held releases its lock; off: the lock stays until its ttl
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$o = rlock_test_options(['ttl' => 20000]);

function work(array $o): string {
    $l = new RLock('scoped', $o);
    $l->lock();
    return $l->key();   // $l goes out of scope here
}
$key = work($o);
echo "out of scope: "; var_dump(rlock_test_cmd('EXISTS', $key));

$l = new RLock('unset', $o);
$l->lock();
$l->lock();              // two holds through one object
$key = $l->key();
unset($l);
echo "unset with two holds: "; var_dump(rlock_test_cmd('EXISTS', $key));

$l = new RLock('reassigned', $o);
$l->lock();
$key = $l->key();
$l = null;
echo "set to null: "; var_dump(rlock_test_cmd('EXISTS', $key));

// two objects on one key: destroying the inner one leaves the outer hold
$outer = new RLock('shared', $o);
$inner = new RLock('shared', $o);
$outer->lock();
$inner->lock();
unset($inner);
echo "inner destroyed: "; var_dump(rlock_test_cmd('GET', $outer->key()) === $outer->token());
unset($outer);
echo "outer destroyed: "; var_dump(rlock_test_cmd('EXISTS', $key = (new RLock('shared', $o))->key()));

// a lock we no longer own is left alone
$l = new RLock('taken', $o);
$l->lock();
rlock_test_cmd('SET', $l->key(), 'new-owner', 'PX', '20000');
$key = $l->key();
unset($l);
echo "taken over, then destroyed: "; var_dump(rlock_test_cmd('GET', $key));

$l = new RLock('kept', ['auto_release' => false] + $o);
$l->lock();
$key = $l->key();
$token = $l->token();
unset($l);
echo "auto_release off: "; var_dump(rlock_test_cmd('GET', $key) === $token);
$pttl = rlock_test_cmd('PTTL', $key);
var_dump($pttl > 15000 && $pttl <= 20000);
var_dump(RLock::release('kept', $token, $o));
?>
--EXPECT--
out of scope: int(0)
unset with two holds: int(0)
set to null: int(0)
inner destroyed: bool(true)
outer destroyed: int(0)
taken over, then destroyed: string(9) "new-owner"
auto_release off: bool(true)
bool(true)
bool(true)
