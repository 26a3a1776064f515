--TEST--
key() is the Redis key with the prefix: option "prefix", else rlock.prefix (default "rlock:")
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
var_dump((new RLock('orders:42'))->key());
var_dump((new RLock('orders:42', ['prefix' => 'app1:']))->key());
var_dump((new RLock('orders:42', ['prefix' => '']))->key());
ini_set('rlock.prefix', 'ini:');
var_dump((new RLock('orders:42'))->key());
var_dump((new RLock('orders:42', ['prefix' => 'opt:']))->key());

// the lock lives under that key
$l = new RLock('orders:42', ['server' => RLOCK_TEST_DSN, 'prefix' => 'rlock-test-019:']);
var_dump($l->tryLock());
var_dump(rlock_test_cmd('GET', 'rlock-test-019:orders:42') === $l->token());
var_dump($l->unlock());

try {
    new RLock('');
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
string(15) "rlock:orders:42"
string(14) "app1:orders:42"
string(9) "orders:42"
string(13) "ini:orders:42"
string(13) "opt:orders:42"
bool(true)
bool(true)
bool(true)
RLock::__construct(): Argument #1 ($key) must not be empty
