--TEST--
spin_us: an int of microseconds from 0 to 10000; anything else is a ValueError or TypeError naming the option, and a php.ini value out of range makes every call throw naming the setting
--EXTENSIONS--
rlock
--INI--
rlock.spin_us=20000
--FILE--
<?php
foreach ([-1, 10001, PHP_INT_MAX, 'abc', 1.5] as $v) {
    try {
        new RLock('k', ['spin_us' => $v]);
        echo "accepted ", var_export($v, true), "\n";
    } catch (ValueError|TypeError $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
}
try {
    new RLock('k');
    echo "accepted the php.ini value\n";
} catch (ValueError $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
// the array's value wins over the bad php.ini one; 0 and 10000 are in range
foreach ([0, 10000] as $v) {
    new RLock('k', ['spin_us' => $v]);
    echo "spin_us $v: accepted\n";
}
?>
--EXPECTF--
Warning: PHP Startup: php.ini setting rlock.spin_us="20000" must be between 0 and 10000; every call that uses it throws in Unknown on line 0
ValueError: RLock::__construct(): Argument #2 ($options) option "spin_us" must be between 0 and 10000
ValueError: RLock::__construct(): Argument #2 ($options) option "spin_us" must be between 0 and 10000
ValueError: RLock::__construct(): Argument #2 ($options) option "spin_us" must be between 0 and 10000
TypeError: RLock::__construct(): Argument #2 ($options) option "spin_us" must be of type int, string given
%s: RLock::__construct(): Argument #2 ($options) option "spin_us" must be of type int, float given
ValueError: php.ini setting rlock.spin_us="20000" must be between 0 and 10000
spin_us 0: accepted
spin_us 10000: accepted
