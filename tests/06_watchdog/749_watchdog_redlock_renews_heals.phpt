--TEST--
watchdog with "servers" (Redlock): the lease is renewed on every master, and a master that lost the key (restarted without persistence: FLUSHALL here) gets it back under the same token at the next renewal, while the other two still renew it
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../watchdog.inc';
$s = rlock_test_slow();
$m = [rlock_test_own_server(), rlock_test_own_server(), rlock_test_own_server()];
$l = new RLock('a', ['servers' => array_column($m, 'dsn'), 'ttl' => 1000 * $s, 'watchdog' => true, 'prefix' => 'f749:']);
var_dump($l->tryLock());
$key = $l->key();
$ours = fn (int $i) => $m[$i]['cmd']('GET', $key) === $l->token();
// held for three leases: renewed on all three masters throughout
for ($end = hrtime(true) + 3000e6 * $s, $min = PHP_INT_MAX; hrtime(true) < $end;) {
    rlock_test_sleep(50 * $s);
    foreach ($m as $server) {
        $min = min($min, $server['cmd']('PTTL', $key));
    }
}
var_dump($min > 0, $ours(0) && $ours(1) && $ours(2));
var_dump(rlock_test_info('Watchdog locks renewed now'));

// master B restarts: the next renewal sets the key there again (awaited, with a deadline)
$m[1]['cmd']('FLUSHALL');
for ($deadline = hrtime(true) + 5e9 * $s; !$ours(1) && hrtime(true) < $deadline;) {
    rlock_test_sleep(10);
}
var_dump($ours(1), $m[1]['cmd']('PTTL', $key) > 0, $l->lost(), $l->isAcquired());
var_dump($l->unlock());
echo implode(' ', array_map(fn ($server) => $server['cmd']('EXISTS', $key), $m)), "\n";
var_dump(rlock_test_info('Watchdog locks renewed now'));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
int(1)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
0 0 0
int(0)
