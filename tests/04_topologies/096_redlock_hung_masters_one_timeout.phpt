--TEST--
Redlock with 2 of 5 masters hung (SIGSTOP) costs one read_timeout, not one per hung master: new connections are made together, AUTH/SELECT sent with the command
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$servers = [];
for ($i = 0; $i < 5; $i++) {
    $servers[] = rlock_test_own_server('--requirepass sesame');
}
exec("kill -STOP {$servers[0]['pid']} {$servers[3]['pid']}");
// a database and a password: each new connection says AUTH and SELECT before the command
$dsns = array_map(fn ($s) => "redis://:sesame@127.0.0.1:{$s['port']}/2", $servers);
$l = new RLock('k', ['servers' => $dsns, 'connect_timeout' => 1000, 'read_timeout' => 1000, 'ttl' => 10000]);
foreach (['tryLock', 'unlock', 'tryLock', 'unlock'] as $call) {
    $t = microtime(true);
    $got = $l->$call();
    $ms = (microtime(true) - $t) * 1000;
    // one read_timeout for the hung masters (before: one AUTH, one SELECT per hung master, 4 s)
    echo "$call: ", var_export($got, true), ", within one read_timeout: ", var_export($ms < 1700 * $slow, true), "\n";
}
?>
--EXPECT--
tryLock: true, within one read_timeout: true
unlock: true, within one read_timeout: true
tryLock: true, within one read_timeout: true
unlock: true, within one read_timeout: true
