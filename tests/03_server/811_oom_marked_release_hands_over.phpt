--TEST--
A Redis out of memory (maxmemory, noeviction): the holder of a key a waiter marked still releases it, and the release hands it over to the waiter, as before the mark (the count read by a GET, the first write a DEL, which maxmemory allows; a DECR first is refused)
--EXTENSIONS--
rlock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
exec('command -v redis-server', $out, $rc);
if ($rc !== 0) die('skip redis-server not installed');
if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available');
?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$srv = rlock_test_own_server('--maxmemory-policy noeviction');
$o = ['server' => $srv['dsn'], 'ttl' => 60000 * $slow];
$l = new RLock('k', $o);
var_dump($l->lock());
[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = pcntl_fork();
if ($pid === 0) {
    fclose($mine);
    $w = new RLock('k', $o);
    try {
        $got = $w->lock(30000 * $slow);
    } catch (RLockException $e) {
        $got = $e->getMessage();
    }
    fwrite($theirs, json_encode($got) . "\n");
    exit(0);
}
fclose($theirs);
// the waiter queued: the key marked
$deadline = microtime(true) + 10 * $slow;
while (($srv['cmd'])('GET', $l->key()) !== $l->token() . '+') {
    if (microtime(true) > $deadline) {
        die("the waiter never marked the key\n");
    }
    usleep(5000);
}
var_dump(($srv['cmd'])('CONFIG', 'SET', 'maxmemory', '1'));
try {
    var_dump($l->unlock());
} catch (RLockException $e) {
    // before: OOM, the key held (marked) until its lease ran out, the waiter with it
    echo get_class($e), ': ', str_replace((string) $srv['port'], 'PORT', $e->getMessage()), "\n";
}
($srv['cmd'])('CONFIG', 'SET', 'maxmemory', '0');
if (!$l->isAcquired()) {
    echo 'waiter: ', fgets($mine);
} else {
    $l->unlock();
    echo "held after the release\n";
}
pcntl_waitpid($pid, $status);
?>
--EXPECT--
bool(true)
string(2) "OK"
bool(true)
waiter: true
