--TEST--
RReadWriteLock on a Redis Cluster: every key of a lock shares its slot (the scripts run, no CROSSSLOT), with and without a {hash tag}
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require_once __DIR__ . '/config.inc';
$slow = getenv('USE_ZEND_ALLOC') === '0' ? 10 : 1;
$b = stream_socket_server('tcp://127.0.0.1:0');
$bus = (int) explode(':', stream_socket_get_name($b, false))[1];
fclose($b);
$conf = sys_get_temp_dir() . '/rlock-phpt-443-' . getmypid() . '.conf';
register_shutdown_function(fn () => @unlink($conf));
$srv = rlock_test_own_server('--cluster-enabled yes --cluster-port ' . $bus . ' --cluster-config-file ' . escapeshellarg($conf));
$srv['cmd']('CLUSTER', 'ADDSLOTSRANGE', '0', '16383');
$deadline = microtime(true) + 10 * $slow;
while (!str_contains($srv['cmd']('CLUSTER', 'INFO'), 'cluster_state:ok') && microtime(true) < $deadline) {
    usleep(20000);
}
foreach (['stock', '{item:7}:stock'] as $key) {
    $o = ['cluster' => ["127.0.0.1:{$srv['port']}"], 'reentrant' => false];
    [$a, $b] = [new RReadWriteLock($key, $o), new RReadWriteLock($key, $o)];
    echo "$key: ", json_encode([$a->readLock()->tryLock(), $b->readLock()->tryLock(), $b->writeLock()->tryLock(),
        $a->readLock()->unlock(), $b->readLock()->unlock(), $b->writeLock()->lock(100), $a->readLock()->tryLock(),
        $b->writeLock()->unlock()]), "\n";
    $slots = array_unique(array_map(fn ($k) => $srv['cmd']('CLUSTER', 'KEYSLOT', $k),
        [$a->readLock()->key(), $a->writeLock()->key(), rlock_test_companion("rlock:$key", 'wfence')]));
    echo "one slot: ", count($slots), "\n";
}
?>
--EXPECT--
stock: [true,true,false,true,true,true,false,true]
one slot: 1
{item:7}:stock: [true,true,false,true,true,true,false,true]
one slot: 1
