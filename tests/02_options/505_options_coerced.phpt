--TEST--
Options follow PHP's coercive parameter rules: numeric strings ('ttl' => '5000', as Laravel's env() gives), integral floats and bools for ints; ints, floats and "0", "1", "" for bools; ints, floats, bools and Stringables for strings. Refused as PHP 9 will: "5000abc", 1000.5, "1000.5", null; and "false" or "off" for a bool (PHP would read them as true)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
// each value as the option it is given for; the lock's effective options show what it became
$dsn = new class { public function __toString(): string { return RLOCK_TEST_DSN; } };
$cases = [
    ['ttl' => '5000'], ['ttl' => ' 5000'], ['ttl' => '5e3'], ['ttl' => 5000.0], ['wait' => true], ['wait' => '0'],
    ['fencing' => 1], ['fencing' => 0.0], ['fencing' => '1'], ['fencing' => '0'], ['fencing' => ''],
    ['prefix' => 42], ['prefix' => 1.5], ['prefix' => true], ['server' => $dsn],
    ['ttl' => '5000abc'], ['ttl' => 1000.5], ['ttl' => '1000.5'], ['ttl' => null], ['ttl' => '0x1388'], ['ttl' => 1e30],
    ['fencing' => 'false'], ['fencing' => 'off'], ['fencing' => null], ['prefix' => null], ['prefix' => []],
];
foreach ($cases as $options) {
    [$name] = array_keys($options);
    $shown = is_object($options[$name]) ? 'Stringable' : (is_array($options[$name]) ? '[]' : var_export($options[$name], true));
    try {
        $l = new RLock('k', rlock_test_options($options));
        ob_start();
        print_r($l);
        preg_match('/\[' . $name . '\] => (.*)/', ob_get_clean(), $m);
        echo "$name => $shown: ", $name == 'fencing' ? var_export((bool) $m[1], true) : $m[1], "\n";
    } catch (ValueError|TypeError $e) {
        echo "$name => $shown: ", get_class($e), ': ', $e->getMessage(), "\n";
    }
}
// the string ttl is the lease Redis gets
$l = new RLock('k', rlock_test_options(['ttl' => '5000']));
var_dump($l->lock(), rlock_test_cmd('PTTL', $l->key()) <= 5000, $l->unlock());
?>
--EXPECTF--
ttl => '5000': 5000
ttl => ' 5000': 5000
ttl => '5e3': 5000
ttl => 5000.0: 5000
wait => true: 1
wait => '0': 0
fencing => 1: true
fencing => 0.0: false
fencing => '1': true
fencing => '0': false
fencing => '': false
prefix => 42: 42
prefix => 1.5: 1.5
prefix => true: 1
server => Stringable: redis://%s
ttl => '5000abc': TypeError: RLock::__construct(): Argument #2 ($options) option "ttl" must be of type int, string given
ttl => 1000.5: TypeError: RLock::__construct(): Argument #2 ($options) option "ttl" must be of type int, float given
ttl => '1000.5': TypeError: RLock::__construct(): Argument #2 ($options) option "ttl" must be of type int, string given
ttl => NULL: TypeError: RLock::__construct(): Argument #2 ($options) option "ttl" must be of type int, null given
ttl => '0x1388': TypeError: RLock::__construct(): Argument #2 ($options) option "ttl" must be of type int, string given
ttl => 1.0E+30: TypeError: RLock::__construct(): Argument #2 ($options) option "ttl" must be of type int, float given
fencing => 'false': ValueError: RLock::__construct(): Argument #2 ($options) option "fencing" must be a bool: a string must be "", "0" or "1" (PHP would read any other as true)
fencing => 'off': ValueError: RLock::__construct(): Argument #2 ($options) option "fencing" must be a bool: a string must be "", "0" or "1" (PHP would read any other as true)
fencing => NULL: TypeError: RLock::__construct(): Argument #2 ($options) option "fencing" must be of type bool, null given
prefix => NULL: TypeError: RLock::__construct(): Argument #2 ($options) option "prefix" must be of type string, null given
prefix => []: TypeError: RLock::__construct(): Argument #2 ($options) option "prefix" must be of type string, array given
bool(true)
bool(true)
bool(true)
