--TEST--
watchdog: its own connection sends AUTH (user and password) and SELECT before it renews: a lock in database 3 of a server with ACL users stays ours
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../watchdog.inc';
$srv = rlock_test_own_server('--requirepass Default-Secret-1 --user alice on '
    . implode(' ', array_map('escapeshellarg', ['>Alice-Secret-2', '~*', '&*', '+@all'])));
$cmd = $srv['cmd'];
var_dump($cmd('AUTH', 'Default-Secret-1'), $cmd('SELECT', '3'));
$s = rlock_test_slow();
$l = new RLock('a', ['server' => "redis://alice:Alice-Secret-2@127.0.0.1:{$srv['port']}/3", 'ttl' => 300 * $s,
    'watchdog' => true]);
var_dump($l->tryLock());
/* five renewals, within 10 s (scaled): each a round trip on the watchdog's connection */
$until = hrtime(true) + 10 * $s * 1000000000;
while (rlock_test_info('Watchdog renewals') < 5 && hrtime(true) < $until) {
    usleep(10000);
}
var_dump(rlock_test_info('Watchdog renewals') >= 5, rlock_test_info('Watchdog renewals that failed'));
var_dump($cmd('GET', $l->key()) === $l->token(), $cmd('PTTL', $l->key()) > 0, $l->isAcquired());
var_dump($l->unlock());
?>
--EXPECT--
string(2) "OK"
string(2) "OK"
bool(true)
bool(true)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
