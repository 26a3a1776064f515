--TEST--
extend($ttlMs) resets our lease (default: option "ttl"); false, and no longer held, once lost
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$l = new RLock('ext', rlock_test_options(['ttl' => 2000]));
echo "not held: "; var_dump($l->extend());
var_dump($l->lock());
var_dump($l->extend(60000));
$pttl = rlock_test_cmd('PTTL', $l->key());
var_dump($pttl > 59000 && $pttl <= 60000);
var_dump($l->ttl() > 59000);
var_dump($l->extend(500));
$pttl = rlock_test_cmd('PTTL', $l->key());
var_dump($pttl > 0 && $pttl <= 500);
var_dump($l->extend());          // back to option "ttl"
$pttl = rlock_test_cmd('PTTL', $l->key());
var_dump($pttl > 1500 && $pttl <= 2000);
var_dump(rlock_test_cmd('GET', $l->key()) === $l->token());

foreach ([0, -5] as $bad) {
    try {
        $l->extend($bad);
    } catch (ValueError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}

echo "taken over:\n";
rlock_test_cmd('SET', $l->key(), 'new-owner', 'PX', '20000');
var_dump($l->extend(60000));
$pttl = rlock_test_cmd('PTTL', $l->key());
var_dump($pttl <= 20000);          // not the new owner's lease that moved
var_dump($l->token(), $l->unlock());
var_dump(rlock_test_cmd('GET', $l->key()));

echo "deleted:\n";
rlock_test_cmd('DEL', $l->key());
var_dump($l->lock(), $l->extend(1000));
rlock_test_cmd('DEL', $l->key());
var_dump($l->extend(1000));
var_dump(rlock_test_cmd('EXISTS', $l->key()));
?>
--EXPECT--
not held: bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
ValueError: RLock::extend(): Argument #1 ($ttlMs) must be between 100 and 2147483647 (milliseconds)
ValueError: RLock::extend(): Argument #1 ($ttlMs) must be between 100 and 2147483647 (milliseconds)
taken over:
bool(false)
bool(true)
NULL
bool(false)
string(9) "new-owner"
deleted:
bool(true)
bool(true)
bool(false)
int(0)
