--TEST--
An uncontended lock + unlock costs Redis little more than SET NX PX and a compare-and-delete script: a SET, then one EVALSHA carrying the lock's 5 keys and 2 arguments (the numbers packed in one) that reads the key and deletes, as the classic compare-and-delete (the key holds the bare token: no waiter marked it, so the waiters' count is not read)
--EXTENSIONS--
rlock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
exec('command -v redis-server', $out, $rc);
if ($rc !== 0) die('skip redis-server not installed');
?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$srv = rlock_test_own_server();
$o = ['server' => $srv['dsn']];

$l = new RLock('k', $o);
var_dump($l->lock(), $l->unlock());   // the server learns the script

// what the server runs, from MONITOR: a client's command with its number of arguments, a
// script's command by name
$m = stream_socket_client("tcp://127.0.0.1:{$srv['port']}", $errno, $errstr, 2);
stream_set_timeout($m, 10 * $slow);
fwrite($m, "MONITOR\r\n");
echo fgets($m);
$l = new RLock('k', $o);
var_dump($l->lock(), $l->unlock());
($srv['cmd'])('ECHO', 'end');
while (($line = fgets($m)) !== false && !str_contains($line, '"end"')) {
    if (preg_match('/^\+[\d.]+ \[\d+ ([^\]]+)\] (.*)$/', rtrim($line), $x)) {
        preg_match_all('/"((?:[^"\\\\]|\\\\.)*)"/', $x[2], $args);
        $cmd = strtoupper($args[1][0]);
        echo $x[1] === 'lua' ? "  in the script: $cmd\n" : "$cmd and " . (count($args[1]) - 1) . " arguments\n";
    }
}
?>
--EXPECT--
bool(true)
bool(true)
+OK
bool(true)
bool(true)
SET and 5 arguments
EVALSHA and 9 arguments
  in the script: GET
  in the script: DEL
