--TEST--
RLock::release($key, $token, $options) deletes the lock only with the right token, from anywhere
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options();
$l = new RLock('static', $o);
var_dump($l->lock());
$token = $l->token();

echo "wrong token: "; var_dump(RLock::release('static', str_repeat('0', 32), $o));
var_dump(rlock_test_cmd('GET', $l->key()) === $token);
echo "right token, wrong key: "; var_dump(RLock::release('other', $token, $o));
echo "right token, other prefix: "; var_dump(RLock::release('static', $token, ['prefix' => 'elsewhere:'] + $o));
var_dump(rlock_test_cmd('GET', $l->key()) === $token);
echo "right token: "; var_dump(RLock::release('static', $token, $o));
var_dump(rlock_test_cmd('EXISTS', $l->key()));
echo "again: "; var_dump(RLock::release('static', $token, $o));

// the holder learns it is no longer its lock
echo "holder's unlock: "; var_dump($l->unlock());
// and the key is free for a fresh hold, not a reentrant one on the old token
var_dump($l->lock(), $l->token() !== $token);
$other = new RLock('static', $o);
var_dump($other->tryLock(), $other->token() === $l->token());
$other->unlock();
$l->unlock();

// a token saved by a request that is gone, released by the next one
rlock_test_cmd('SET', $l->key(), 'f00dfeedf00dfeedf00dfeedf00dfeed', 'PX', '20000');
var_dump(RLock::release('static', 'f00dfeedf00dfeedf00dfeedf00dfeed', $o));
var_dump(rlock_test_cmd('EXISTS', $l->key()));

foreach ([['', 'x', $o], ['k', 'x', ['bogus' => 1]], ['k', 'x', ['ttl' => 0]]] as $args) {
    try {
        RLock::release(...$args);
    } catch (ValueError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
bool(true)
wrong token: bool(false)
bool(true)
right token, wrong key: bool(false)
right token, other prefix: bool(false)
bool(true)
right token: bool(true)
int(0)
again: bool(false)
holder's unlock: bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
ValueError: RLock::release(): Argument #1 ($key) must not be empty
ValueError: RLock::release(): Argument #3 ($options) unknown option "bogus"
ValueError: RLock::release(): Argument #3 ($options) option "ttl" must be between 100 and 2147483647 (milliseconds)
