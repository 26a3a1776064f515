--TEST--
Each option's bad value is a ValueError or TypeError naming the option
--EXTENSIONS--
rlock
--FILE--
<?php
$cases = [
    ['ttl' => 0], ['ttl' => -1], ['ttl' => '5000'], ['ttl' => 1.5], ['ttl' => null],
    ['wait' => -1], ['wait' => '1'],
    ['retry_delay' => -1], ['retry_delay' => true],
    ['connect_timeout' => 0], ['connect_timeout' => -1], ['connect_timeout' => 1.0],
    ['read_timeout' => 0], ['read_timeout' => '1000'],
    ['prefix' => 1], ['prefix' => null],
    ['persistent' => 1], ['reentrant' => 'yes'], ['auto_release' => null], ['fencing' => 0], ['fair' => []],
    ['server' => 1], ['server' => ['redis://127.0.0.1']],
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
$ok = new RLock('k', ['ttl' => 1, 'wait' => 0, 'retry_delay' => 1, 'connect_timeout' => 1, 'read_timeout' => 1,
    'prefix' => '', 'persistent' => false, 'reentrant' => false, 'auto_release' => false, 'fencing' => true, 'fair' => false]);
echo "ok\n";
?>
--EXPECT--
ValueError: RLock::__construct(): Argument #2 ($options) option "ttl" must be between 1 and 2147483647
ValueError: RLock::__construct(): Argument #2 ($options) option "ttl" must be between 1 and 2147483647
TypeError: RLock::__construct(): Argument #2 ($options) option "ttl" must be of type int, string given
TypeError: RLock::__construct(): Argument #2 ($options) option "ttl" must be of type int, float given
TypeError: RLock::__construct(): Argument #2 ($options) option "ttl" must be of type int, null given
ValueError: RLock::__construct(): Argument #2 ($options) option "wait" must be between 0 and 2147483647
TypeError: RLock::__construct(): Argument #2 ($options) option "wait" must be of type int, string given
ValueError: RLock::__construct(): Argument #2 ($options) option "retry_delay" must be between 1 and 2147483647
TypeError: RLock::__construct(): Argument #2 ($options) option "retry_delay" must be of type int, bool given
ValueError: RLock::__construct(): Argument #2 ($options) option "connect_timeout" must be between 1 and 2147483647
ValueError: RLock::__construct(): Argument #2 ($options) option "connect_timeout" must be between 1 and 2147483647
TypeError: RLock::__construct(): Argument #2 ($options) option "connect_timeout" must be of type int, float given
ValueError: RLock::__construct(): Argument #2 ($options) option "read_timeout" must be between 1 and 2147483647
TypeError: RLock::__construct(): Argument #2 ($options) option "read_timeout" must be of type int, string given
TypeError: RLock::__construct(): Argument #2 ($options) option "prefix" must be of type string, int given
TypeError: RLock::__construct(): Argument #2 ($options) option "prefix" must be of type string, null given
TypeError: RLock::__construct(): Argument #2 ($options) option "persistent" must be of type bool, int given
TypeError: RLock::__construct(): Argument #2 ($options) option "reentrant" must be of type bool, string given
TypeError: RLock::__construct(): Argument #2 ($options) option "auto_release" must be of type bool, null given
TypeError: RLock::__construct(): Argument #2 ($options) option "fencing" must be of type bool, int given
TypeError: RLock::__construct(): Argument #2 ($options) option "fair" must be of type bool, array given
TypeError: RLock::__construct(): Argument #2 ($options) option "server" must be of type string, int given
TypeError: RLock::__construct(): Argument #2 ($options) option "server" must be of type string, array given
ValueError: RLock::__construct(): Argument #2 ($options) must be an array keyed by option name
ValueError: RLock::__construct(): Argument #2 ($options) must be an array keyed by option name
ok
