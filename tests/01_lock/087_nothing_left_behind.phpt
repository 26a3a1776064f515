--TEST--
Nothing is left in Redis for ever: unfenced lock + unlock leaves no key at all; fenced, contended, timed-out, expired and Redlock cycles leave keys that all expire (fencing counters ttl + 10 s after their last token, or the end of the wait of a fencing waiter), and DBSIZE returns to 0
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$srv = rlock_test_own_server();
$cmd = $srv['cmd'];
$ttl = 1000;
$o = ['server' => $srv['dsn'], 'ttl' => $ttl];
// cycles per phase: the fenced ones must all run within a counter's life (ttl + 10 s), which
// 3000 cycles under valgrind do not
$n = intdiv(3000, $slow);
// the longest wait of a fencing waiter below: the keys it counts itself in live that long
$wait = 1500 * $slow;

// uncontended, no fencing: nothing at all, at once
for ($i = 0; $i < $n; $i++) {
    $l = new RLock("order:$i", $o);
    $l->lock();
    $l->unlock();
}
echo "plain: ", $cmd('DBSIZE'), "\n";

// a third fenced: one counter per fenced key, and it expires
for ($i = 0; $i < $n; $i++) {
    $l = new RLock("fenced:$i", $o + ['fencing' => $i % 3 === 0]);
    $l->lock();
    $l->unlock();
}
$left = $cmd('DBSIZE');
echo "fenced: ", $left === intdiv($n + 2, 3) ? 'one counter per fenced key' : "$left keys for $n cycles", "\n";

// contended: 4 processes on 3 keys, fenced or not, fair or not, some waits timing out
$pids = [];
for ($p = 0; $p < 4; $p++) {
    if (($pid = pcntl_fork()) === 0) {
        $mine = $o + ['fencing' => $p % 2 === 0, 'fair' => $p < 2, 'reentrant' => false];
        for ($i = 0; $i < 150; $i++) {
            $l = new RLock('shared:' . ($i % 3), $mine);
            if ($l->lock($i % 10 === 0 ? 1 : $wait)) {
                $l->unlock();
            }
        }
        exit(0);
    }
    $pids[] = $pid;
}
foreach ($pids as $pid) {
    pcntl_waitpid($pid, $status);
}

// a holder that died: its waiter ends its own wait at the expiry (the "0" on its own list)
foreach ([false, true] as $fencing) {
    $cmd('SET', 'rlock:dead', 'a-dead-holder', 'PX', '200');
    $l = new RLock('dead', $o + ['fencing' => $fencing]);
    var_dump($l->lock($wait), $l->unlock());
}

// Redlock (one master here), fenced: the counter raised to the quorum's largest token expires too
$r = new RLock('redlock', ['servers' => [$srv['dsn']], 'ttl' => $ttl, 'fencing' => true]);
for ($i = 0; $i < 20; $i++) {
    $r->lock();
    $r->unlock();
}

// every key left expires: fencing counters ttl + 10 s after their last token, or 500 ms
// after the longest wait of a fencing waiter
$keys = $cmd('KEYS', '*');
$forever = [];
$longest = 0;
foreach ($keys as $k) {
    $pttl = $cmd('PTTL', $k);
    if ($pttl < 0) {
        $forever[] = $k;
    }
    $longest = max($longest, $pttl);
}
echo "left for ever: ", json_encode(array_map('bin2hex', $forever)), "\n";
var_dump($longest <= max($ttl + 10000, $wait + 500));
for ($deadline = microtime(true) + ($longest + 5000 * $slow) / 1000; $cmd('DBSIZE') > 0 && microtime(true) < $deadline;) {
    usleep(100000);
}
echo "at last: ", $cmd('DBSIZE'), "\n";
?>
--EXPECT--
plain: 0
fenced: one counter per fenced key
bool(true)
bool(true)
bool(true)
bool(true)
left for ever: []
bool(true)
at last: 0
