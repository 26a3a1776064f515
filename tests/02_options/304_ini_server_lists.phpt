--TEST--
php.ini defaults rlock.servers, rlock.cluster, rlock.sentinel, rlock.service, rlock.sync_replicas: used, overridden, and rejected when bad
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$settings = ['rlock.servers', 'rlock.cluster', 'rlock.sentinel', 'rlock.service', 'rlock.sync_replicas'];
function reset_ini(array $settings): void
{
    foreach ($settings as $s) {
        ini_restore($s);
    }
}
$o = rlock_test_options(['read_timeout' => 300]);
unset($o['server']);
$dead = '127.0.0.1:' . (function () {
    $s = stream_socket_server('tcp://127.0.0.1:0');
    $p = explode(':', stream_socket_get_name($s, false))[1];
    fclose($s);
    return $p;
})();

echo "rlock.servers: a Redlock over the masters it lists\n";
var_dump(ini_set('rlock.servers', ' ' . RLOCK_TEST_DSN . ' ,, ') !== false);
$l = new RLock('ini', $o);
var_dump($l->lock(), rlock_test_cmd('GET', $l->key()) === $l->token());
var_dump($l->unlock(), rlock_test_cmd('EXISTS', $l->key()));

echo "the constructor's list or server wins over php.ini's:\n";
ini_set('rlock.servers', "redis://$dead");
$l = new RLock('ini', ['server' => RLOCK_TEST_DSN] + $o);
var_dump($l->tryLock(), $l->unlock());
ini_set('rlock.cluster', $dead);
ini_set('rlock.servers', '');
$l = new RLock('ini', ['servers' => [RLOCK_TEST_DSN]] + $o);
var_dump($l->tryLock(), $l->unlock());
reset_ini($settings);

echo "rlock.sentinel needs rlock.service:\n";
ini_set('rlock.sentinel', $dead);
try {
    new RLock('ini', $o);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
ini_set('rlock.service', 'mymaster');
$l = new RLock('ini', $o);
try {
    $l->tryLock();
} catch (RLockConnectionException $e) {
    echo "asks the sentinel: ", str_contains($e->getMessage(), $dead) ? 'yes' : $e->getMessage(), "\n";
}
reset_ini($settings);

echo "two of them at once:\n";
ini_set('rlock.servers', RLOCK_TEST_DSN);
ini_set('rlock.cluster', $dead);
try {
    new RLock('ini', $o);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
reset_ini($settings);

echo "rlock.sync_replicas: the test server has no replica\n";
var_dump(ini_set('rlock.sync_replicas', '1') !== false);
$l = new RLock('ini', ['server' => RLOCK_TEST_DSN] + $o);
$t = microtime(true);
var_dump($l->tryLock(), rlock_test_cmd('EXISTS', $l->key()));
echo "gave up after read_timeout: ", var_export((microtime(true) - $t) * 1000 < 3000, true), "\n";
$l = new RLock('ini', ['server' => RLOCK_TEST_DSN, 'sync_replicas' => 0] + $o);
var_dump($l->tryLock(), $l->unlock());
reset_ini($settings);

echo "bad values never reach a lock: ini_set() refuses them, or RLock throws a ValueError naming the setting\n";
$bad = [
    ['rlock.servers', 'redis://h:99999'], ['rlock.servers', 'redis://a, bogus://b'], ['rlock.servers', ','],
    ['rlock.cluster', 'h:1, h:x'], ['rlock.sentinel', 'h:0'], ['rlock.sync_replicas', '-1'],
];
foreach ($bad as [$name, $value]) {
    reset_ini($settings);
    ini_set('rlock.service', 'mymaster');
    if (@ini_set($name, $value) === false) {
        echo "$name=$value: rejected\n";
        continue;
    }
    try {
        new RLock('ini', $o);
        echo "$name=$value: accepted\n";
    } catch (ValueError $e) {
        $m = $e->getMessage();
        echo "$name=$value: ", str_contains($m, $name) && !str_contains($m, 'Argument #0') ? 'rejected' : "message: $m", "\n";
    }
}
?>
--EXPECTF--
rlock.servers: a Redlock over the masters it lists
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
the constructor's list or server wins over php.ini's:
bool(true)
bool(true)
bool(true)
bool(true)
rlock.sentinel needs rlock.service:
php.ini setting rlock.sentinel needs rlock.service (or the option "service")
asks the sentinel: yes
two of them at once:
php.ini settings rlock.servers, rlock.cluster and rlock.sentinel exclude each other
rlock.sync_replicas: the test server has no replica
bool(true)
bool(false)
int(0)
gave up after read_timeout: true
bool(true)
bool(true)
bad values never reach a lock: ini_set() refuses them, or RLock throws a ValueError naming the setting
rlock.servers=redis://h:99999: rejected
rlock.servers=redis://a, bogus://b: rejected
rlock.servers=,: rejected
rlock.cluster=h:1, h:x: rejected
rlock.sentinel=h:0: rejected
rlock.sync_replicas=-1: rejected
