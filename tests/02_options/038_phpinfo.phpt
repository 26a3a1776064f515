--TEST--
phpinfo() has an rlock section: versions, persistent connections open, and the counters
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
function section(): string {
    ob_start();
    phpinfo(INFO_MODULES);
    $all = ob_get_clean();
    $start = strpos($all, "\nrlock\n");
    return $start === false ? "no rlock section\n" : rtrim(substr($all, $start + 1, strpos($all, "\nDirective", $start) - $start)) . "\n";
}
function counters(): string {
    preg_match_all('/^(Persistent connections open|Locks acquired|Acquires that waited|Waits that timed out|Locks lost|Reconnects) => (\d+)$/m', section(), $m);
    return implode(', ', array_map(fn($k, $v) => "$k $v", $m[1], $m[2])) . "\n";
}
echo section();

echo counters();
$l = new RLock('info', rlock_test_options(['persistent' => false]));
for ($i = 0; $i < 3; $i++) {
    $l->tryLock();
    $l->unlock();
}
echo "3 acquired, none persistent: ", counters();

$p = new RLock('info', rlock_test_options());
rlock_test_cmd('SET', $p->key(), 'someone-else', 'PX', '20000');
$p->tryLock();
echo "a failed tryLock counts nothing: ", counters();
$p->lock(150);
echo "a wait that timed out: ", counters();
rlock_test_cmd('DEL', $p->key());

$p->lock();
rlock_test_cmd('DEL', $p->key());
$p->unlock();
echo "an unlock that found it gone: ", counters();
$p->lock();
rlock_test_cmd('DEL', $p->key());
$p->extend();
echo "an extend that found it gone: ", counters();

// reentrant holds are not new acquisitions
$p->lock();
$q = new RLock('info', rlock_test_options());
$q->lock();
$q->unlock();
$p->unlock();
echo "one acquisition, two holds: ", counters();

// a second server (another database) is a second pooled connection
$d = new RLock('info', ['server' => RLOCK_TEST_DSN . '/1']);
$d->isLocked();
echo "two servers: ", counters();
?>
--EXPECTF--
rlock

rlock support => enabled
Version => %d.%d.%s
hiredis version => %d.%d.%d
TLS (rediss://) => %s
Persistent connections open => 0
Statistics => the pool's (shared memory, rlock_status())
Locks acquired => 0
Acquires that waited => 0
Waits that timed out => 0
Locks lost => 0
Reconnects => 0
Watchdog thread => not running
Watchdog locks renewed now => 0
Watchdog renewals => 0
Watchdog round trips => 0
Watchdog renewals that failed => 0
Watchdog locks found lost => 0
Persistent connections open 0, Locks acquired 0, Acquires that waited 0, Waits that timed out 0, Locks lost 0, Reconnects 0
3 acquired, none persistent: Persistent connections open 0, Locks acquired 3, Acquires that waited 0, Waits that timed out 0, Locks lost 0, Reconnects 0
a failed tryLock counts nothing: Persistent connections open 1, Locks acquired 3, Acquires that waited 0, Waits that timed out 0, Locks lost 0, Reconnects 0
a wait that timed out: Persistent connections open 1, Locks acquired 3, Acquires that waited 1, Waits that timed out 1, Locks lost 0, Reconnects 0
an unlock that found it gone: Persistent connections open 1, Locks acquired 4, Acquires that waited 1, Waits that timed out 1, Locks lost 1, Reconnects 0
an extend that found it gone: Persistent connections open 1, Locks acquired 5, Acquires that waited 1, Waits that timed out 1, Locks lost 2, Reconnects 0
one acquisition, two holds: Persistent connections open 1, Locks acquired 6, Acquires that waited 1, Waits that timed out 1, Locks lost 2, Reconnects 0
two servers: Persistent connections open 2, Locks acquired 6, Acquires that waited 1, Waits that timed out 1, Locks lost 2, Reconnects 0
