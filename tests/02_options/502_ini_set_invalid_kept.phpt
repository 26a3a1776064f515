--TEST--
ini_set() of an invalid value keeps it as given (no warning, the old value returned), never the default: every lock made while it is set throws naming it; a lock made before keeps its options; ini_restore() and a valid value end it
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
set_error_handler(function ($no, $msg) { echo "warning: $msg\n"; return true; });
function attempt(string $what, callable $make): void
{
    try {
        $make();
        echo "$what: made\n";
    } catch (ValueError $e) {
        echo "$what: ", $e->getMessage(), "\n";
    }
}
$before = new RLock('k', rlock_test_options());
var_dump(ini_set('rlock.ttl', '5'), ini_get('rlock.ttl'));
attempt('RLock', fn() => new RLock('k', rlock_test_options()));
attempt('RSemaphore', fn() => new RSemaphore('s', 1, rlock_test_options()));
attempt('RReadWriteLock', fn() => new RReadWriteLock('rw', rlock_test_options()));
attempt('RLock with its ttl', fn() => new RLock('k', rlock_test_options(['ttl' => 2000])));
var_dump($before->lock(), rlock_test_cmd('PTTL', $before->key()) > 5, $before->unlock());
ini_restore('rlock.ttl');
attempt('after ini_restore()', fn() => new RLock('k', rlock_test_options()));
ini_set('rlock.server', 'localhost:6379');
attempt('RLock', fn() => new RLock('k'));
ini_set('rlock.server', RLOCK_TEST_DSN);
attempt('after a valid value', fn() => new RLock('k'));
?>
--EXPECT--
string(5) "30000"
string(1) "5"
RLock: php.ini setting rlock.ttl="5" is in milliseconds and must be at least 100: 5 would be 5 ms (5 seconds is 5000)
RSemaphore: php.ini setting rlock.ttl="5" is in milliseconds and must be at least 100: 5 would be 5 ms (5 seconds is 5000)
RReadWriteLock: php.ini setting rlock.ttl="5" is in milliseconds and must be at least 100: 5 would be 5 ms (5 seconds is 5000)
RLock with its ttl: made
bool(true)
bool(true)
bool(true)
after ini_restore(): made
RLock: php.ini setting rlock.server="localhost:6379" must be redis://[user:pass@]host[:port][/db], rediss://... (TLS), tcp://host:port or unix:///path
after a valid value: made
