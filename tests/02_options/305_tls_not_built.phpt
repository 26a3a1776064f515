--TEST--
A build without TLS refuses a rediss:// server (option, list entry or php.ini default) with an RLockException, never a plain connection; phpinfo() says it has no TLS
--EXTENSIONS--
rlock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
ob_start();
phpinfo(INFO_MODULES);
if (str_contains(ob_get_clean(), 'TLS (rediss://) => yes')) {
    die('skip a build with TLS: tests/tls runs instead');
}
?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
ob_start();
phpinfo(INFO_MODULES);
preg_match('/^TLS \(rediss:\/\/\) => .*$/m', ob_get_clean(), $m);
echo $m[0], "\n";
$port = RLOCK_TEST_PORT;
$count = fn () => (int) preg_replace('/.*total_connections_received:(\d+).*/s', '$1', rlock_test_cmd('INFO', 'stats'));
$before = $count();
$cases = [
    ['server' => "rediss://127.0.0.1:$port"],
    ['servers' => ["rediss://127.0.0.1:$port", RLOCK_TEST_DSN]],
    ['cluster' => ["rediss://127.0.0.1:$port"]],
    ['sentinel' => ["rediss://127.0.0.1:$port"], 'service' => 'mymaster'],
];
foreach ($cases as $options) {
    try {
        (new RLock('tls', $options))->tryLock();
        echo "connected\n";
    } catch (RLockConnectionException $e) {
        echo "wrong class: ", $e->getMessage(), "\n";
    } catch (RLockException $e) {
        echo $e->getMessage(), "\n";
    }
}
ini_set('rlock.server', "rediss://127.0.0.1:$port");
try {
    new RLock('tls');
} catch (RLockException $e) {
    echo get_class($e), "\n";
}
echo "connections: ", $count() - $before, "\n";
?>
--EXPECT--
TLS (rediss://) => no: built without hiredis_ssl
rediss:// (TLS) is not supported: this build of rlock has no TLS (hiredis_ssl was not found when it was built; see README.md, TLS)
rediss:// (TLS) is not supported: this build of rlock has no TLS (hiredis_ssl was not found when it was built; see README.md, TLS)
rediss:// (TLS) is not supported: this build of rlock has no TLS (hiredis_ssl was not found when it was built; see README.md, TLS)
rediss:// (TLS) is not supported: this build of rlock has no TLS (hiredis_ssl was not found when it was built; see README.md, TLS)
RLockException
connections: 0
