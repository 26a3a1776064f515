--TEST--
RLock::multi: bad keys are a ValueError (or TypeError) naming the argument: none, more than 10, an empty key, a key twice, a non-string; with "cluster", keys without one shared {hash tag}
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options();
$cases = [[], array_map('strval', range(1, 11)), ['a', ''], ['a', 'b', 'a'], ['a', 1], ['a', ['b']],
    'cluster' => ['{t}a', 'b'], 'cluster, two tags' => ['{t}a', '{u}b'], 'cluster, no tag' => ['a']];
foreach ($cases as $what => $keys) {
    $opts = is_string($what) ? ['cluster' => [RLOCK_TEST_HOST . ':' . RLOCK_TEST_PORT]] : $o;
    try {
        RLock::multi($keys, $opts);
        echo "no error\n";
    } catch (Error $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
// ten keys, and one shared tag with "cluster", are fine (made without asking Redis)
var_dump(RLock::multi(array_map('strval', range(1, 10)), $o) instanceof RLock);
var_dump(RLock::multi(['{t}a', '{t}b'], ['cluster' => [RLOCK_TEST_HOST . ':' . RLOCK_TEST_PORT]]) instanceof RLock);
?>
--EXPECT--
ValueError: RLock::multi(): Argument #1 ($keys) must hold 1 to 10 keys
ValueError: RLock::multi(): Argument #1 ($keys) must hold 1 to 10 keys
ValueError: RLock::multi(): Argument #1 ($keys) must not contain an empty key
ValueError: RLock::multi(): Argument #1 ($keys) must not contain a key twice
TypeError: RLock::multi(): Argument #1 ($keys) must contain only strings, int given
TypeError: RLock::multi(): Argument #1 ($keys) must contain only strings, array given
ValueError: RLock::multi(): Argument #1 ($keys) must be keys sharing one {hash tag} with the "cluster" option, or they could not be taken in one script
ValueError: RLock::multi(): Argument #1 ($keys) must be keys sharing one {hash tag} with the "cluster" option, or they could not be taken in one script
ValueError: RLock::multi(): Argument #1 ($keys) must be keys sharing one {hash tag} with the "cluster" option, or they could not be taken in one script
bool(true)
bool(true)
