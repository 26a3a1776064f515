--TEST--
watchdog with "servers" (Redlock): with one master hung (SIGSTOP) the lock stays held, renewed on the other two (its round trip awaited with theirs, within one read timeout); with two hung, no quorum renews it, and it is lost once its validity ends
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../watchdog.inc';
$s = rlock_test_slow();
$m = [rlock_test_own_server(), rlock_test_own_server(), rlock_test_own_server()];
$ttl = 900 * $s;
$l = new RLock('a', ['servers' => array_column($m, 'dsn'), 'ttl' => $ttl, 'read_timeout' => 100 * $s, 'watchdog' => true,
    'prefix' => 'f751:']);
var_dump($l->tryLock());
$key = $l->key();

// A hung: held for three leases, renewed on B and C
exec("kill -STOP {$m[0]['pid']}");
for ($end = hrtime(true) + 3 * $ttl * 1e6, $min = PHP_INT_MAX; hrtime(true) < $end;) {
    rlock_test_sleep(50 * $s);
    $min = min($min, $m[1]['cmd']('PTTL', $key), $m[2]['cmd']('PTTL', $key));
}
var_dump($min > 0, $l->lost(), $l->isAcquired());

// B hung too: C alone renews, no quorum: lost within its validity and a round (a generous bound)
exec("kill -STOP {$m[1]['pid']}");
$start = hrtime(true);
for ($deadline = $start + 10 * $ttl * 1e6; !$l->lost() && hrtime(true) < $deadline;) {
    rlock_test_sleep(10);
}
var_dump($l->lost(), (hrtime(true) - $start) / 1e6 < 5 * $ttl);
exec("kill -CONT {$m[0]['pid']} {$m[1]['pid']}");
var_dump($l->unlock());
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
bool(false)
