--TEST--
Redlock: restore() counts the validity of the masters that hold the token only: a master where another token holds the key (a contender's vote, for a moment) and a longer lease on one of ours do not make the restored hold valid past the lease of the quorum that holds it, so no other process gets the lock while ttl() says it is held
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$m = [rlock_test_own_server(), rlock_test_own_server(), rlock_test_own_server()];
$o = ['servers' => array_column($m, 'dsn'), 'ttl' => 1000 * $slow, 'read_timeout' => 300 * $slow,
    'connect_timeout' => 300 * $slow, 'prefix' => 'f815:'];
$a = new RLock('k', $o);
var_dump($a->lock());
$token = $a->token();
// M3 restarted empty, and a contender's vote holds it for a moment
$m[2]['cmd']('FLUSHALL');
$m[2]['cmd']('SET', 'f815:k', str_repeat('c', 32), 'PX', (string) (60000 * $slow));
// A extends while M2 does not answer: M1 extended, M2 not, M3 another's: not held (false)
exec("kill -STOP {$m[1]['pid']}");
var_dump($a->extend(60000 * $slow));
exec("kill -CONT {$m[1]['pid']}");
// the process A handed the token to restores it: M1 and M2 hold it, a quorum
$r = new RLock('k', $o);
var_dump($r->restore($token));
$left = $m[1]['cmd']('PTTL', 'f815:k');
echo 'restored validity within the lease M2 has left: ', var_export($r->ttl() <= max($left, 0), true), "\n";
// the contender gives M3 back; M2's key runs out
$m[2]['cmd']('DEL', 'f815:k');
for ($deadline = microtime(true) + 30 * $slow; $m[1]['cmd']('PTTL', 'f815:k') !== -2;) {
    if (microtime(true) > $deadline) {
        die("M2's key never ran out\n");
    }
    usleep(5000);
}
$b = new RLock('k', $o);
$got = $b->lock(0);
echo 'another process got the lock: ', var_export($got, true), '; the restored hold still valid by ttl(): ', var_export($r->ttl() > 0, true), "\n";
echo 'both at once: ', var_export($got && $r->ttl() > 0, true), "\n";
?>
--EXPECT--
bool(true)
bool(false)
bool(true)
restored validity within the lease M2 has left: true
another process got the lock: true; the restored hold still valid by ttl(): false
both at once: false
