--TEST--
rlock_status_reset() zeroes every counter and histogram and forgets the keys; holds now stay, servers keep their place; counting goes on
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
rlock.stats_keys=16
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['reentrant' => false]);
$a = new RLock('a', $o);
$b = new RLock('b', $o);
var_dump($a->lock(1000), $a->unlock(), $b->lock(1000));
$s = rlock_status();
echo "before: acquires={$s['acquires']} tracked={$s['table']['tracked']} holds={$s['holds']} commands>0=", var_export(reset($s['servers'])['commands'] > 0, true), "\n";
var_dump(rlock_status_reset());
$s = rlock_status();
echo "after: acquires={$s['acquires']} wait.count={$s['wait']['count']} tracked={$s['table']['tracked']} keys=", count($s['keys']),
    " holds={$s['holds']}\n";
// a server keeps its place (its connections remember it), its counts zeroed
echo "servers: ", count($s['servers']), ", commands ", reset($s['servers'])['commands'], ", rtt count ", reset($s['servers'])['rtt']['count'], "\n";
echo "reset time: ", var_export($s['table']['reset'] >= $s['table']['started'], true), "\n";
$m = rlock_metrics();
echo "metrics: other only: ", var_export(!str_contains($m, 'key="' . $a->key()) && str_contains($m, 'rlock_acquires_total{key="other",kind="other"} 0'), true), "\n";
var_dump($b->unlock(), $a->tryLock());
$s = rlock_status();
echo "again: acquires={$s['acquires']} keys=", implode(',', array_keys($s['keys'])) === $a->key() ? 'a' : 'wrong', " holds={$s['holds']}\n";
$a->unlock();
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
before: acquires=2 tracked=2 holds=1 commands>0=true
NULL
after: acquires=0 wait.count=0 tracked=0 keys=0 holds=1
servers: 1, commands 0, rtt count 0
reset time: true
metrics: other only: true
bool(true)
bool(true)
again: acquires=1 keys=a holds=1
