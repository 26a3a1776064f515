--TEST--
Per-server statistics: commands and round trips, errors by kind (connection refused, a reply error), reconnects after the server closed the connection
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
rlock.stats_keys=16
--FILE--
<?php
require __DIR__ . '/../config.inc';
// a port nobody listens on
$s = stream_socket_server('tcp://127.0.0.1:0');
$dead = (int) explode(':', stream_socket_get_name($s, false))[1];
fclose($s);
$l = new RLock('down', ['server' => "redis://127.0.0.1:$dead", 'connect_timeout' => 200]);
try {
    $l->lock();
} catch (RLockConnectionException $e) {
    echo "refused\n";
}
$down = rlock_status()['servers']["127.0.0.1:$dead"];
echo "down: commands={$down['commands']} errors=", json_encode($down['errors']), "\n";

$o = rlock_test_options();
$server = RLOCK_TEST_HOST . ':' . RLOCK_TEST_PORT;
$w = new RLock('hash', $o);
rlock_test_cmd('HSET', $w->key(), 'a', 'b');      // WRONGTYPE to the script of a waiting lock()
try {
    $w->lock(1000);
} catch (RLockException $e) {
    echo "reply error: ", get_class($e), "\n";
}
$l = new RLock('up', $o);
var_dump($l->lock(), $l->unlock());
$before = rlock_status()['servers'][$server];
// the server closes our connection: the next call opens another
foreach (rlock_test_cmd('CLIENT', 'LIST') ? explode("\n", trim(rlock_test_cmd('CLIENT', 'LIST'))) : [] as $c) {
    if (!str_contains($c, 'cmd=client')) {
        rlock_test_cmd('CLIENT', 'KILL', 'ID', substr($c, 3, strpos($c, ' ') - 3));
    }
}
var_dump($l->lock(), $l->unlock());
$after = rlock_status()['servers'][$server];
echo "reconnects: ", $after['reconnects'] - $before['reconnects'], ", commands: +", $after['commands'] - $before['commands'],
    ", one in four timed: ", var_export($after['rtt']['count'] >= 1 && $after['rtt']['count'] <= intdiv($after['commands'], 4) + 1, true), "\n";
echo "reply errors: ", var_export($after['errors']['reply'] >= 1, true), ", connection errors: ", $after['errors']['connection'], "\n";
$m = rlock_metrics();
echo "metrics: ", var_export(str_contains($m, "rlock_server_errors_total{server=\"127.0.0.1:$dead\",kind=\"connection\"} 1")
    && str_contains($m, "rlock_server_reconnects_total{server=\"$server\"} 1"), true), "\n";
?>
--EXPECT--
refused
down: commands=0 errors={"connection":1,"timeout":0,"auth":0,"reply":0}
reply error: RLockException
bool(true)
bool(true)
bool(true)
bool(true)
reconnects: 1, commands: +2, one in four timed: true
reply errors: true, connection errors: 0
metrics: true
