--TEST--
managed Redis: as a user without SCRIPT LOAD, WAIT, CLIENT, CONFIG, INFO, KEYS and DEBUG, every lock operation works (tryLock, lock, reentrancy, extend, isLocked, ttl, fencing, synchronized, RLock::release), also after the script cache is flushed (NOSCRIPT after a failover), and the server refuses rlock nothing
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../managed.inc';
$srv = rlock_test_managed_server();
$cmd = $srv['cmd'];
/* the user is refused what the managed services refuse */
foreach ([['SCRIPT', 'LOAD', 'return 1'], ['WAIT', '0', '0'], ['CLIENT', 'ID'], ['CONFIG', 'GET', 'hz'], ['INFO'],
        ['KEYS', '*'], ['DEBUG', 'SLEEP', '0']] as $c) {
    echo implode(' ', $c), ': ', $cmd('ACL', 'DRYRUN', 'managed', ...$c) !== 'OK' ? 'refused' : 'allowed', "\n";
}
echo "EVALSHA: ", var_export($cmd('ACL', 'DRYRUN', 'managed', 'EVALSHA', str_repeat('0', 40), '0'), true), "\n";

foreach ([[], ['fencing' => true]] as $more) {
    $o = ['server' => $srv['user_dsn'], 'ttl' => 10000] + $more;
    $l = new RLock('a', $o);
    $other = new RLock('a', ['reentrant' => false] + $o);     // another holder, as if of another process
    $ok = $l->tryLock() && !$other->tryLock() && $l->isLocked() && $l->isAcquired() && !$other->isAcquired()
        && $l->lock() && $l->unlock() && $l->isAcquired()      // reentrant: one hold of two given back
        && $l->extend(20000) && $l->ttl() > 10000 && !$other->extend(20000)
        && $l->unlock() && !$l->isLocked() && !$l->unlock();
    $fence = $l->fencingToken();
    /* a failover to a replica whose script cache is empty: NOSCRIPT, then EVAL */
    $cmd('SCRIPT', 'FLUSH');
    $ok = $ok && $other->lock(1000) && (!$more || $other->fencingToken() > $fence)
        && RLock::release('a', $other->token(), $o) && !$other->isLocked()
        && !$other->unlock() && $other->lost();
    $cmd('SCRIPT', 'FLUSH');
    $ok = $ok && $l->synchronized(fn (RLock $l) => $l->isAcquired() && $l->extend()) && !$l->isLocked();
    echo json_encode($more), ': ', $ok ? 'ok' : 'FAILED', "\n";
}
echo "refused: ", json_encode(rlock_test_managed_refused($srv)), "\n";
?>
--EXPECT--
SCRIPT LOAD return 1: refused
WAIT 0 0: refused
CLIENT ID: refused
CONFIG GET hz: refused
INFO: refused
KEYS *: refused
DEBUG SLEEP 0: refused
EVALSHA: 'OK'
[]: ok
{"fencing":true}: ok
refused: []
