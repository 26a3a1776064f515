--TEST--
A Redis out of memory (maxmemory reached) fails lock($waitMs) at once with its OOM error, not at the deadline
--EXTENSIONS--
rlock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
exec('command -v redis-server', $out, $rc);
if ($rc !== 0) die('skip redis-server not installed');
?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$srv = rlock_test_own_server('--maxmemory-policy noeviction');
$l = new RLock('k', ['server' => $srv['dsn']]);
($srv['cmd'])('SET', $l->key(), 'another-holder', 'PX', '60000');
var_dump($l->lock(0));   // taken: the next attempt goes through the script and waits
var_dump(($srv['cmd'])('CONFIG', 'SET', 'maxmemory', '1'));

$t = microtime(true);
try {
    var_dump($l->lock(5000));
} catch (RLockException $e) {
    echo get_class($e), ': ', str_replace((string) $srv['port'], 'PORT', $e->getMessage()), "\n";
}
// before: the wake pushed on the waiter's list was refused too, and the wait ran its 5 s
var_dump((microtime(true) - $t) * 1000 < 2000 * $slow);
?>
--EXPECTF--
bool(false)
string(2) "OK"
RLockException: Redis 127.0.0.1:PORT: OOM %s
bool(true)
