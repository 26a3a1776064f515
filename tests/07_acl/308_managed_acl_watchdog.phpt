--TEST--
managed Redis: as a user without SCRIPT LOAD, WAIT, CLIENT, ...: the watchdog's own connection authenticates as that user and renews, also after the script cache is flushed (NOSCRIPT after a failover)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../managed.inc';
require __DIR__ . '/../watchdog.inc';
$slow = rlock_test_slow();
$srv = rlock_test_managed_server();
$cmd = $srv['cmd'];
$l = new RLock('w', ['server' => $srv['user_dsn'], 'ttl' => 300 * $slow, 'watchdog' => true]);
var_dump($l->tryLock());

/* Wait for n renewals in all (a renewal is every ttl/3, 100 ms; scaled). */
function renewals(int $n, int $slow): bool
{
    for ($until = hrtime(true) + 5 * $slow * 1000000000; rlock_test_info('Watchdog renewals') < $n && hrtime(true) < $until;) {
        usleep(10000);
    }
    return rlock_test_info('Watchdog renewals') >= $n;
}
var_dump(renewals(2, $slow));
/* two connections of the user: the lock's and the watchdog's */
echo "user's connections: ", substr_count($cmd('CLIENT', 'LIST'), ' user=managed '), "\n";
$cmd('SCRIPT', 'FLUSH');
var_dump(renewals(5, $slow), rlock_test_info('Watchdog renewals that failed'));
var_dump($cmd('GET', $l->key()) === $l->token(), $cmd('PTTL', $l->key()) > 0, $l->lost(), $l->unlock());
echo "refused: ", json_encode(rlock_test_managed_refused($srv)), "\n";
?>
--EXPECT--
bool(true)
bool(true)
user's connections: 2
bool(true)
int(0)
bool(true)
bool(true)
bool(false)
bool(true)
refused: []
