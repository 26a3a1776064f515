--TEST--
var_dump(), print_r(), var_export(), json_encode() and debug_zval_dump() of RLock, RSemaphore and RReadWriteLock show the servers with their passwords as "***", never a password
--EXTENSIONS--
rlock
--INI--
pcre.jit=0
--FILE--
<?php
$secret = 'Sup3r-Secret-Pw';
$objects = [
    new RLock('k', ['server' => "redis://admin:$secret@127.0.0.1:7000/2"]),
    new RLock('k', ['servers' => ["redis://:$secret@127.0.0.1:7001", "redis://u:$secret@127.0.0.1:7002", 'redis://127.0.0.1:7003']]),
    new RLock('k', ['cluster' => ["127.0.0.1:7004"], 'server' => "redis://admin:$secret@127.0.0.1"]),
    new RSemaphore('s', 2, ['sentinel' => ["redis://:$secret@127.0.0.1:26379"], 'service' => 'mymaster']),
    new RReadWriteLock('rw', ['server' => "redis://$secret@[::1]:7005"]),
    RLock::multi(['a', 'b'], ['server' => "unix:///tmp/redis.sock"]),
];
ob_start();
foreach ($objects as $o) {
    var_dump($o);
    print_r($o);
    var_export($o);
    echo json_encode($o);
    debug_zval_dump($o);
}
$out = ob_get_clean();
echo str_contains($out, $secret) ? "password shown\n" : "no password\n";
preg_match_all('/"((?:redis|rediss|unix):\/\/[^"]*)"/', $out, $m);
echo implode("\n", array_unique($m[1])), "\n";
?>
--EXPECT--
no password
redis://admin:***@127.0.0.1:7000/2
redis://***@127.0.0.1:7001
redis://u:***@127.0.0.1:7002
redis://127.0.0.1:7003
redis://127.0.0.1:7004
redis://***@127.0.0.1:26379
redis://***@[::1]:7005
unix:///tmp/redis.sock
