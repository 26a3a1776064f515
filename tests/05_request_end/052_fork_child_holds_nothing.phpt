--TEST--
After pcntl_fork() the child holds none of the parent's locks: unlock() false, and no release at its exit
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['ttl' => 20000]);
$l = new RLock('forked', $o);
var_dump($l->lock(), $l->lock());    // two holds
$token = $l->token();

[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = pcntl_fork();
if ($pid === 0) {
    fclose($mine);
    $r = [];
    $r['token'] = $l->token();
    $r['fencingToken'] = $l->fencingToken();
    $r['isAcquired'] = $l->isAcquired();
    $r['isLocked'] = $l->isLocked();
    $r['extend'] = $l->extend(1000);
    $r['unlock'] = $l->unlock();
    $again = new RLock('forked', $o);      // not reentrant on the parent's hold
    $r['tryLock same key'] = $again->tryLock();
    $own = new RLock('child-own', $o);     // its own lock, on its own connection
    $r['tryLock own key'] = $own->tryLock();
    $r['own token is new'] = $own->token() !== $token;
    fwrite($theirs, json_encode($r) . "\n");
    exit(0);                                // auto_release: only the child's own lock
}
fclose($theirs);
foreach (json_decode(fgets($mine), true) as $k => $v) {
    echo "child $k: ", var_export($v, true), "\n";
}
pcntl_waitpid($pid, $status);
echo "child exit status: ", rlock_test_exit($status), "\n";
echo "parent's lock untouched: ", var_export(rlock_test_cmd('GET', $l->key()) === $token, true), "\n";
$pttl = rlock_test_cmd('PTTL', $l->key());
echo "and not extended to 1000: ", var_export($pttl > 15000, true), "\n";
echo "child's own lock released at its exit: ", var_export(rlock_test_cmd('EXISTS', $o['prefix'] . 'child-own'), true), "\n";
var_dump($l->isAcquired(), $l->unlock(), $l->unlock(), rlock_test_cmd('EXISTS', $l->key()));
?>
--EXPECT--
bool(true)
bool(true)
child token: NULL
child fencingToken: NULL
child isAcquired: false
child isLocked: true
child extend: false
child unlock: false
child tryLock same key: false
child tryLock own key: true
child own token is new: true
child exit status: 0
parent's lock untouched: true
and not extended to 1000: true
child's own lock released at its exit: 0
bool(true)
bool(true)
bool(true)
int(0)
