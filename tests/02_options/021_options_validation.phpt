--TEST--
Each option's bad value is a ValueError or TypeError naming the option
--EXTENSIONS--
rlock
--FILE--
<?php
$cases = [
    ['ttl' => 0], ['ttl' => -1], ['ttl' => '5000ms'], ['ttl' => 1000.5], ['ttl' => null],
    ['wait' => -1], ['wait' => 'a while'],
    ['retry_delay' => -1], ['retry_delay' => []],
    ['connect_timeout' => 0], ['connect_timeout' => -1], ['connect_timeout' => 1000.5],
    ['read_timeout' => 0], ['read_timeout' => '1000.5'],
    ['prefix' => []], ['prefix' => null],
    ['persistent' => 'on'], ['reentrant' => 'yes'], ['auto_release' => null], ['fencing' => 'false'], ['fair' => []],
    ['server' => new stdClass], ['server' => ['redis://127.0.0.1']],
    [1], ['ttl' => 1000, 0 => 'x'],
];
foreach ($cases as $c) {
    try {
        new RLock('k', $c);
        echo "accepted: ", json_encode($c), "\n";
    } catch (ValueError|TypeError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
// the smallest good values pass
$ok = new RLock('k', ['ttl' => 100, 'wait' => 0, 'retry_delay' => 1, 'connect_timeout' => 100, 'read_timeout' => 100,
    'prefix' => '', 'persistent' => false, 'reentrant' => false, 'auto_release' => false, 'fencing' => true, 'fair' => false]);
echo "ok\n";
?>
--EXPECT--
ValueError: RLock::__construct(): Argument #2 ($options) option "ttl" must be between 100 and 2147483647 (milliseconds)
ValueError: RLock::__construct(): Argument #2 ($options) option "ttl" must be between 100 and 2147483647 (milliseconds)
TypeError: RLock::__construct(): Argument #2 ($options) option "ttl" must be of type int, string given
TypeError: RLock::__construct(): Argument #2 ($options) option "ttl" must be of type int, float given
TypeError: RLock::__construct(): Argument #2 ($options) option "ttl" must be of type int, null given
ValueError: RLock::__construct(): Argument #2 ($options) option "wait" must be between 0 and 2147483647 (milliseconds)
TypeError: RLock::__construct(): Argument #2 ($options) option "wait" must be of type int, string given
ValueError: RLock::__construct(): Argument #2 ($options) option "retry_delay" must be between 1 and 2147483647 (milliseconds)
TypeError: RLock::__construct(): Argument #2 ($options) option "retry_delay" must be of type int, array given
ValueError: RLock::__construct(): Argument #2 ($options) option "connect_timeout" must be between 100 and 2147483647 (milliseconds)
ValueError: RLock::__construct(): Argument #2 ($options) option "connect_timeout" must be between 100 and 2147483647 (milliseconds)
TypeError: RLock::__construct(): Argument #2 ($options) option "connect_timeout" must be of type int, float given
ValueError: RLock::__construct(): Argument #2 ($options) option "read_timeout" must be between 100 and 2147483647 (milliseconds)
TypeError: RLock::__construct(): Argument #2 ($options) option "read_timeout" must be of type int, string given
TypeError: RLock::__construct(): Argument #2 ($options) option "prefix" must be of type string, array given
TypeError: RLock::__construct(): Argument #2 ($options) option "prefix" must be of type string, null given
ValueError: RLock::__construct(): Argument #2 ($options) option "persistent" must be a bool: a string must be "", "0" or "1" (PHP would read any other as true)
ValueError: RLock::__construct(): Argument #2 ($options) option "reentrant" must be a bool: a string must be "", "0" or "1" (PHP would read any other as true)
TypeError: RLock::__construct(): Argument #2 ($options) option "auto_release" must be of type bool, null given
ValueError: RLock::__construct(): Argument #2 ($options) option "fencing" must be a bool: a string must be "", "0" or "1" (PHP would read any other as true)
TypeError: RLock::__construct(): Argument #2 ($options) option "fair" must be of type bool, array given
TypeError: RLock::__construct(): Argument #2 ($options) option "server" must be of type string, stdClass given
TypeError: RLock::__construct(): Argument #2 ($options) option "server" must be of type string, array given
ValueError: RLock::__construct(): Argument #2 ($options) must be an array keyed by option name
ValueError: RLock::__construct(): Argument #2 ($options) must be an array keyed by option name
ok
