--TEST--
TLS: a persistent TLS connection is reused by later locks, and a forked child opens its own (never the parent's)
--EXTENSIONS--
rlock
pcntl
--INI--
rlock.connect_timeout=5000
rlock.read_timeout=5000
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/tls.inc';
$r = rlock_tls_server();
$count = fn () => (int) preg_replace('/.*total_connections_received:(\d+).*/s', '$1', ($r['cmd'])('INFO', 'stats'));
$opts = ['server' => $r['tls_dsn'], 'tls_ca' => $r['ca']];
$before = $count();
for ($i = 0; $i < 5; $i++) {
    $l = new RLock("tls-f$i", $opts);
    $l->lock();
    $l->unlock();
}
echo "5 locks, connections: ", $count() - $before, "\n";
$pid = pcntl_fork();
if ($pid === 0) {
    $l = new RLock('tls-child', $opts);
    exit($l->lock() && $l->unlock() ? 0 : 1);
}
pcntl_waitpid($pid, $status);
echo "child: ", rlock_test_exit($status), ", connections: ", $count() - $before, "\n";
$l = new RLock('tls-parent', $opts);
var_dump($l->lock(), $l->unlock());
echo "parent again, connections: ", $count() - $before, "\n";
?>
--EXPECT--
5 locks, connections: 1
child: 0, connections: 2
bool(true)
bool(true)
parent again, connections: 2
