--TEST--
A request killed by a fatal error (memory exhausted) while holding a lock releases it at once
--EXTENSIONS--
rlock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
if (!is_file(ini_get('extension_dir') . '/rlock.so')) die('skip rlock.so not in extension_dir');
?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['ttl' => 30000]);
$key = $o['prefix'] . 'request';

// a PHP request of its own, which takes the lock and then ends as below
$code = '$l = new RLock("request", ' . var_export($o, true) . ');
if (!$l->lock()) { exit(3); }
echo "locked ", $l->token(), "\n";
$hog = [];
while (true) { $hog[] = str_repeat("x", 1 << 20); }';
$cmd = [PHP_BINARY, '-n', '-d', 'extension_dir=' . ini_get('extension_dir'), '-d', 'extension=rlock',
    '-d', 'display_errors=stderr', '-d', 'log_errors=0', '-d', 'memory_limit=16M', '-r', $code];
// memory_limit needs the Zend allocator (a run under valgrind turns it off)
$env = getenv();
unset($env['USE_ZEND_ALLOC']);
$proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, $env);
$out = stream_get_contents($pipes[1]);
$err = stream_get_contents($pipes[2]);
proc_close($proc);
// no wait: the key must be gone the moment the process is
$exists = rlock_test_cmd('EXISTS', $key);
echo "child: ", preg_match('/^locked ([0-9a-f]{32})$/m', $out, $m) ? 'locked' : "did not lock: $out", "\n";
echo "how it ended: ", str_contains($err, 'Allowed memory size') ? 'fatal error' : $err, "\n";
echo "released: "; var_dump($exists);
?>
--EXPECT--
child: locked
how it ended: fatal error
released: int(0)
