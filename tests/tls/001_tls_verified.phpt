--TEST--
TLS: a rediss:// server verified by tls_ca (by its IP address, or by tls_server_name), as options and as php.ini defaults
--EXTENSIONS--
rlock
--INI--
rlock.connect_timeout=5000
rlock.read_timeout=5000
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/tls.inc';
$r = rlock_tls_server();
$before = (int) preg_replace('/.*total_connections_received:(\d+).*/s', '$1', ($r['cmd'])('INFO', 'stats'));

$l = new RLock('tls-a', ['server' => $r['tls_dsn'], 'tls_ca' => $r['ca']]);
var_dump($l->lock(), ($r['cmd'])('EXISTS', $l->key()), $l->unlock());

$n = new RLock('tls-b', ['server' => "rediss://localhost:{$r['tls_port']}", 'tls_ca' => $r['ca'], 'tls_server_name' => 'localhost']);
var_dump($n->tryLock(), $n->unlock());

ini_set('rlock.server', $r['tls_dsn']);
ini_set('rlock.tls_ca', $r['ca']);
$d = new RLock('tls-c');
var_dump($d->lock(), $d->unlock());

// the watchdog's own connection renews over TLS
$w = new RLock('tls-w', ['watchdog' => true, 'ttl' => 300 * RLOCK_TLS_SLOW]);
$w->lock();
usleep(700000 * RLOCK_TLS_SLOW);
var_dump($w->isAcquired(), $w->unlock());

$after = (int) preg_replace('/.*total_connections_received:(\d+).*/s', '$1', ($r['cmd'])('INFO', 'stats'));
// one for 127.0.0.1 (reused by the ini-default lock and the watchdog lock), one for localhost, the watchdog thread's own
echo "connections: ", $after - $before, "\n";
?>
--EXPECT--
bool(true)
int(1)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
connections: 3
