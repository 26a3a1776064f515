--TEST--
The DSN password never appears in var_dump, print_r, var_export, json, casts, exception messages or traces
--EXTENSIONS--
rlock
--SKIPIF--
<?php if (PHP_VERSION_ID < 80200) die('skip traces keep arguments not marked #[\SensitiveParameter] (PHP 8.2+)'); ?>
--INI--
zend.exception_ignore_args=0
--FILE--
<?php
$secret = 'Sup3r-Secret-Pw';
$s = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) explode(':', stream_socket_get_name($s, false))[1];
fclose($s);
$dsn = "redis://admin:$secret@127.0.0.1:$port/1";
$l = new RLock('k', ['server' => $dsn]);

$seen = [];
ob_start();
var_dump($l);
print_r($l);
echo "\n";
var_export($l);
echo "\n", json_encode($l), "\n";
var_dump((array) $l, get_object_vars($l));
debug_zval_dump($l);
$seen['dumps'] = ob_get_clean();

function leak(string $where, string $text, string $secret): void {
    echo $where, ': ', str_contains($text, $secret) ? 'LEAK' : 'clean', "\n";
}
leak('dumps', $seen['dumps'], $secret);

$calls = [
    'tryLock' => fn() => $l->tryLock(),
    'synchronized' => fn() => $l->synchronized(fn() => 1),
    'release' => fn() => RLock::release('k', str_repeat('0', 32), ['server' => $dsn]),
    'bad port' => fn() => new RLock('k', ['server' => "redis://admin:$secret@127.0.0.1:99999"]),
    'bad option' => fn() => new RLock('k', ['server' => $dsn, 'ttl' => -1]),
    'bad release option' => fn() => RLock::release('k', $secret, ['server' => $dsn, 'nope' => 1]),
];
foreach ($calls as $what => $call) {
    try {
        $call();
        echo "$what: no exception\n";
    } catch (Throwable $e) {
        leak($what, $e->getMessage() . "\n" . $e->getTraceAsString() . "\n" . $e . "\n" . print_r($e->getTrace(), true), $secret);
        ob_start();
        var_dump($e);
        leak("$what (var_dump)", ob_get_clean(), $secret);
    }
}
// an exception that is never caught prints its trace too
function uncaught() { global $dsn; (new RLock('k', ['server' => $dsn]))->lock(); }
uncaught();
?>
--EXPECTF--
dumps: clean
tryLock: clean
tryLock (var_dump): clean
synchronized: clean
synchronized (var_dump): clean
release: clean
release (var_dump): clean
bad port: clean
bad port (var_dump): clean
bad option: clean
bad option (var_dump): clean
bad release option: clean
bad release option (var_dump): clean

Fatal error: Uncaught RLockConnectionException: Redis 127.0.0.1:%d: cannot connect: Connection refused in %s:%d
Stack trace:
#0 %s(%d): RLock->lock()
#1 %s(%d): uncaught()
#2 {main}
  thrown in %s on line %d
