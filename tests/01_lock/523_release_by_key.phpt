--TEST--
RLock::release() takes what key() returns (the Redis key, prefix included), the way to hand a lock to a job, as well as the key the constructor took; a key that begins with the prefix is a key too, and only the lock that holds the token is released; a key escaped in Redis, and Redlock, alike
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options();
$p = $o['prefix'];

echo "handed to a job by key() and token(): ";
$l = new RLock('job:7', $o);
var_dump($l->tryLock(), RLock::release($l->key(), $l->token(), $o), $l->isAcquired(), rlock_test_cmd('EXISTS', $p . 'job:7'));
echo "by the constructor's key: ";
var_dump($l->tryLock(), RLock::release('job:7', $l->token(), $o), $l->isAcquired());

echo "the keys 'x' and '{prefix}x' both held: ";
$x = new RLock('x', $o);
$px = new RLock($p . 'x', $o);
var_dump($x->tryLock(), $px->tryLock(), $px->key() === $p . $p . 'x');
echo "'{prefix}x' with x's token releases x: ";
var_dump(RLock::release($p . 'x', $x->token(), $o), $x->isAcquired(), $px->isAcquired());
echo "'{prefix}x' with {prefix}x's token releases {prefix}x: ";
var_dump(RLock::release($p . 'x', $px->token(), $o), $px->isAcquired());
echo "{prefix}x by key(), x held again: ";
var_dump($x->tryLock(), $px->tryLock(), RLock::release($px->key(), $px->token(), $o), $px->isAcquired(), $x->isAcquired());
echo "a token neither holds: ";
var_dump(RLock::release($p . 'x', str_repeat('0', 32), $o), RLock::release($x->key(), $px->token() ?? str_repeat('1', 32), $o),
    $x->isAcquired());
var_dump($x->unlock());

echo "a key that begins with '}', prefix '': ";
$e = ['prefix' => ''] + $o;
$odd = '}' . $p . 'odd';
$b = new RLock($odd, $e);
var_dump($b->tryLock(), $b->key() === '}' . $odd, RLock::release($b->key(), $b->token(), $e), $b->isAcquired());
var_dump($b->tryLock(), RLock::release($odd, $b->token(), $e), $b->isAcquired());

echo "Redlock: ";
$r = ['servers' => [RLOCK_TEST_DSN], 'prefix' => $p];
$red = new RLock('red', $r);
var_dump($red->tryLock(), RLock::release($red->key(), $red->token(), $r), $red->isAcquired());
var_dump($red->tryLock(), RLock::release('red', $red->token(), $r), $red->isAcquired());
?>
--EXPECT--
handed to a job by key() and token(): bool(true)
bool(true)
bool(false)
int(0)
by the constructor's key: bool(true)
bool(true)
bool(false)
the keys 'x' and '{prefix}x' both held: bool(true)
bool(true)
bool(true)
'{prefix}x' with x's token releases x: bool(true)
bool(false)
bool(true)
'{prefix}x' with {prefix}x's token releases {prefix}x: bool(true)
bool(false)
{prefix}x by key(), x held again: bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
a token neither holds: bool(false)
bool(false)
bool(true)
bool(true)
a key that begins with '}', prefix '': bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(false)
Redlock: bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(false)
