--TEST--
Invalid integer and bool settings in php.ini (rlock.ttl=abc, a seconds value in rlock.read_timeout, rlock.fencing=flase) are kept, never the default: a call that would use one throws a ValueError naming the setting and its value; options that give it are not affected
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
rlock.ttl=abc
rlock.read_timeout=5
rlock.fencing=flase
--FILE--
<?php
require __DIR__ . '/../config.inc';
var_dump(ini_get('rlock.ttl'), ini_get('rlock.read_timeout'), ini_get('rlock.fencing'));
// each call's options give one more of the three: the next invalid setting is named
$given = [[], ['ttl' => 5000], ['ttl' => 5000, 'read_timeout' => 1000]];
foreach ($given as $options) {
    try {
        new RLock('k', rlock_test_options($options));
        echo "made\n";
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
$l = new RLock('k', rlock_test_options(['ttl' => 5000, 'read_timeout' => 1000, 'fencing' => true]));
var_dump($l->lock(), is_int($l->fencingToken()), $l->unlock());
// set right, they apply
ini_set('rlock.ttl', '4000');
ini_set('rlock.read_timeout', '1000');
ini_set('rlock.fencing', 'on');
$l = new RLock('k', rlock_test_options());
var_dump($l->lock(), is_int($l->fencingToken()), rlock_test_cmd('PTTL', $l->key()) <= 4000, $l->unlock());
?>
--EXPECTF--
%AWarning: PHP Startup: php.ini setting rlock.ttl="abc" must be an integer between 100 and 2147483647 (milliseconds); every call that uses it throws in Unknown on line 0
%AWarning: PHP Startup: php.ini setting rlock.read_timeout="5" is in milliseconds and must be at least 100: 5 would be 5 ms (5 seconds is 5000); every call that uses it throws in Unknown on line 0
%AWarning: PHP Startup: php.ini setting rlock.fencing="flase" must be a bool: On, Off, 1, 0, yes, no, true or false; every call that uses it throws in Unknown on line 0
string(3) "abc"
string(1) "5"
string(5) "flase"
php.ini setting rlock.ttl="abc" must be an integer between 100 and 2147483647 (milliseconds)
php.ini setting rlock.read_timeout="5" is in milliseconds and must be at least 100: 5 would be 5 ms (5 seconds is 5000)
php.ini setting rlock.fencing="flase" must be a bool: On, Off, 1, 0, yes, no, true or false
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
