--TEST--
Options are coerced as PHP's coercive mode does even in a file with declare(strict_types=1): an options array is data (config, env()), not the call's parameters
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
declare(strict_types=1);
require __DIR__ . '/../config.inc';
$l = new RLock('k', rlock_test_options(['ttl' => '5000', 'wait' => '0', 'fencing' => '1', 'prefix' => 7]));
var_dump($l->lock(), $l->key(), is_int($l->fencingToken()), rlock_test_cmd('PTTL', $l->key()) <= 5000, $l->unlock());
try {
    new RLock('k', rlock_test_options(['ttl' => '5 seconds']));
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
bool(true)
string(2) "7k"
bool(true)
bool(true)
bool(true)
RLock::__construct(): Argument #2 ($options) option "ttl" must be of type int, string given
