--TEST--
TLS in every topology: Redlock over rediss:// masters, a Cluster (its nodes over TLS too), a Sentinel over TLS and the master it names
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
$tls = ['tls_ca' => $r['ca']];

// Redlock: two TLS masters
$tls2 = rlock_tls_free_port();
$r2 = rlock_test_own_server("--tls-port $tls2 {$r['tls_args']} --tls-auth-clients no");
$l = new RLock('tls-redlock', ['servers' => [$r['tls_dsn'], "rediss://127.0.0.1:$tls2"]] + $tls);
var_dump($l->lock(), ($r['cmd'])('EXISTS', $l->key()), ($r2['cmd'])('EXISTS', $l->key()), $l->unlock());

// a one-node cluster on a TLS port (its bus over TLS): CLUSTER SLOTS and the node it names
$ctls = rlock_tls_free_port();
$c = rlock_test_own_server("--tls-port $ctls {$r['tls_args']} --tls-auth-clients no --tls-cluster yes --cluster-enabled yes"
    . ' --cluster-port ' . rlock_tls_free_port() . ' --cluster-config-file nodes-' . getmypid() . '.conf');
echo ($c['cmd'])('CLUSTER', 'ADDSLOTSRANGE', '0', '16383'), "\n";
for ($deadline = microtime(true) + 10; !str_contains(($c['cmd'])('CLUSTER', 'INFO'), 'cluster_state:ok') && microtime(true) < $deadline;) {
    usleep(20000);
}
$k = new RLock('tls-cluster', ['cluster' => ["rediss://127.0.0.1:$ctls"]] + $tls);
var_dump($k->lock(), ($c['cmd'])('EXISTS', $k->key()), $k->unlock());
try {
    new RLock('tls-cluster', ['cluster' => ["rediss://127.0.0.1:$ctls", "127.0.0.1:{$c['port']}"]] + $tls);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}

// a Sentinel on a TLS port, naming the TLS master
$sport = rlock_tls_sentinel($r);
$s = new RLock('tls-sentinel', ['sentinel' => ["rediss://127.0.0.1:$sport"], 'service' => 'mymaster'] + $tls);
var_dump($s->lock(), ($r['cmd'])('EXISTS', $s->key()), $s->unlock());
?>
--EXPECT--
bool(true)
int(1)
int(1)
bool(true)
OK
bool(true)
int(1)
bool(true)
RLock::__construct(): Argument #2 ($options) option "cluster" must be all rediss:// (TLS) or none: entry 1 differs from entry 0
bool(true)
int(1)
bool(true)
