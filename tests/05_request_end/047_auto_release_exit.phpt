--TEST--
A request that ends with exit() while holding a lock releases it at once
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
function deep($l) { exit(0); }
deep($l);
echo "not reached\n";';
$cmd = [PHP_BINARY, '-n', '-d', 'extension_dir=' . ini_get('extension_dir'), '-d', 'extension=rlock',
    '-d', 'display_errors=stderr', '-d', 'log_errors=0', '-r', $code];
$proc = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
$out = stream_get_contents($pipes[1]);
$err = stream_get_contents($pipes[2]);
proc_close($proc);
// no wait: the key must be gone the moment the process is
$exists = rlock_test_cmd('EXISTS', $key);
echo "child: ", preg_match('/^locked ([0-9a-f]{32})$/m', $out, $m) ? 'locked' : "did not lock: $out", "\n";
echo "how it ended: ", trim($err) === '' ? 'quietly' : $err, "\n";
echo "released: "; var_dump($exists);
?>
--EXPECT--
child: locked
how it ended: quietly
released: int(0)
