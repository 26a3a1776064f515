--TEST--
auto_release (default on): an RLock destroyed while held releases its lock; off: the lock stays until its ttl
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['ttl' => 20000]);

/* lock() taken, and the key holds our token: what each case below then lets go of */
function take(RLock $l): string {
    return $l->lock() && rlock_test_cmd('GET', $l->key()) === $l->token() ? 'held' : 'NOT HELD';
}

function work(array $o): string {
    $l = new RLock('scoped', $o);
    echo take($l), ", ";
    return $l->key();   // $l goes out of scope here
}
$key = work($o);
echo "out of scope: "; var_dump(rlock_test_cmd('EXISTS', $key));

$l = new RLock('unset', $o);
echo take($l), ", ";
echo take($l), ", ";     // two holds through one object
$key = $l->key();
unset($l);
echo "unset with two holds: "; var_dump(rlock_test_cmd('EXISTS', $key));

$l = new RLock('reassigned', $o);
echo take($l), ", ";
$key = $l->key();
$l = null;
echo "set to null: "; var_dump(rlock_test_cmd('EXISTS', $key));

// two objects on one key: destroying the inner one leaves the outer hold
$outer = new RLock('shared', $o);
$inner = new RLock('shared', $o);
echo take($outer), ", ", take($inner), ", ";
unset($inner);
echo "inner destroyed: "; var_dump(rlock_test_cmd('GET', $outer->key()) === $outer->token());
unset($outer);
echo "outer destroyed: "; var_dump(rlock_test_cmd('EXISTS', $key = (new RLock('shared', $o))->key()));

// a lock we no longer own is left alone
$l = new RLock('taken', $o);
echo take($l), ", ";
rlock_test_cmd('SET', $l->key(), 'new-owner', 'PX', '20000');
$key = $l->key();
unset($l);
echo "taken over, then destroyed: "; var_dump(rlock_test_cmd('GET', $key));

$l = new RLock('kept', ['auto_release' => false] + $o);
echo take($l), ", ";
$key = $l->key();
$token = $l->token();
unset($l);
echo "auto_release off: "; var_dump(rlock_test_cmd('GET', $key) === $token);
$pttl = rlock_test_cmd('PTTL', $key);
var_dump($pttl > 15000 && $pttl <= 20000);
var_dump(RLock::release('kept', $token, $o));
?>
--EXPECT--
held, out of scope: int(0)
held, held, unset with two holds: int(0)
held, set to null: int(0)
held, held, inner destroyed: bool(true)
outer destroyed: int(0)
held, taken over, then destroyed: string(9) "new-owner"
held, auto_release off: bool(true)
bool(true)
bool(true)
