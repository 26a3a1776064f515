--TEST--
Statistics count a known sequence exactly: acquires, contended tries, waits, timeouts, lost, per key and for the pool
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
rlock.stats_keys=64
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['reentrant' => false, 'ttl' => 10000]);
$a = new RLock('a', $o);
$a2 = new RLock('a', $o);
$b = new RLock('b', $o);

var_dump($a->lock(2000));       // acquired at once: a wait histogram entry of ~0
var_dump($a2->tryLock());       // contended try
var_dump($a2->lock(100));       // blocks, then a timeout
var_dump($a->unlock());
var_dump($a2->tryLock());       // acquired, no wait observed (tryLock)
rlock_test_cmd('DEL', $a2->key());
var_dump($a2->unlock());        // found gone: lost
var_dump($b->tryLock(), $b->unlock());
$r = new RLock('b', rlock_test_options(['reentrant' => true]));
var_dump($r->lock(), $r->lock(), $r->unlock(), $r->unlock());  // reentrant: one acquire; no wait: none observed

$fields = ['acquires', 'contended', 'waits', 'timeouts', 'lost', 'handovers'];
$show = function (string $what, array $row) use ($fields) {
    echo $what, ': ';
    foreach ($fields as $f) {
        echo "$f={$row[$f]} ";
    }
    echo "wait.count={$row['wait']['count']}\n";
};
$s = rlock_status();
$show('pool', $s);
$show('a', $s['keys'][$a->key()]);
$show('b', $s['keys'][$b->key()]);
$show('other', $s['other']);
echo "timeout waited about 100 ms: ", var_export($s['keys'][$a->key()]['wait']['max_ms'] >= 100, true), "\n";
echo "p99 within the max: ", var_export($s['wait']['p99_ms'] <= $s['wait']['max_ms'], true), "\n";
echo "nothing held, nobody waits: holds={$s['holds']} waiters={$s['waiters']}\n";
$server = $s['servers'][RLOCK_TEST_HOST . ':' . RLOCK_TEST_PORT];
echo "round trips counted, one in four timed: ", var_export($server['commands'] >= 9 && $server['rtt']['count'] === intdiv($server['commands'], 4), true), "\n";
echo "no server errors: ", array_sum($server['errors']), "\n";
?>
--EXPECT--
bool(true)
bool(false)
bool(false)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
pool: acquires=4 contended=2 waits=1 timeouts=1 lost=1 handovers=0 wait.count=2
a: acquires=2 contended=2 waits=1 timeouts=1 lost=1 handovers=0 wait.count=2
b: acquires=2 contended=0 waits=0 timeouts=0 lost=0 handovers=0 wait.count=0
other: acquires=0 contended=0 waits=0 timeouts=0 lost=0 handovers=0 wait.count=0
timeout waited about 100 ms: true
p99 within the max: true
nothing held, nobody waits: holds=0 waiters=0
round trips counted, one in four timed: true
no server errors: 0
