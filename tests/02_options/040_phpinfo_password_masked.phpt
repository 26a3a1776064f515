--TEST--
phpinfo() masks the password of rlock.server, in the master and the local value, in every DSN form
--EXTENSIONS--
rlock
--INI--
pcre.jit=0
rlock.server=redis://admin:Master-Secret@127.0.0.1:6390/2
--FILE--
<?php
function server_row(): string {
    ob_start();
    phpinfo(INFO_MODULES);
    $all = ob_get_clean();
    preg_match('/^rlock\.server => .*$/m', $all, $m);
    foreach (['Master-Secret', 'Local-Secret', 'p@ss', 'p%40ss', 'Only-Secret'] as $s) {
        if (str_contains($all, $s)) {
            echo "LEAK of $s\n";
        }
    }
    return ($m[0] ?? 'no rlock.server row') . "\n";
}
echo server_row();
foreach (['redis://:Local-Secret@127.0.0.1:6391', 'redis://Only-Secret@127.0.0.1', 'redis://bob:p%40ss@[::1]:6392/3',
          'redis://bob:p@ss@localhost', 'redis://127.0.0.1:6393', 'unix:///run/redis.sock'] as $dsn) {
    ini_set('rlock.server', $dsn);
    echo server_row();
}
?>
--EXPECT--
rlock.server => redis://admin:***@127.0.0.1:6390/2 => redis://admin:***@127.0.0.1:6390/2
rlock.server => redis://:***@127.0.0.1:6391 => redis://admin:***@127.0.0.1:6390/2
rlock.server => redis://***@127.0.0.1 => redis://admin:***@127.0.0.1:6390/2
rlock.server => redis://bob:***@[::1]:6392/3 => redis://admin:***@127.0.0.1:6390/2
rlock.server => redis://bob:***@localhost => redis://admin:***@127.0.0.1:6390/2
rlock.server => redis://127.0.0.1:6393 => redis://admin:***@127.0.0.1:6390/2
rlock.server => unix:///run/redis.sock => redis://admin:***@127.0.0.1:6390/2
