--TEST--
RLock::multi counts in phpinfo()'s counters as any lock: one acquisition of its keys, a wait, a wait that timed out, a lock lost
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
function counters(): string {
    ob_start();
    phpinfo(INFO_MODULES);
    preg_match_all('/^(Locks acquired|Acquires that waited|Waits that timed out|Locks lost) => (\d+)$/m', ob_get_clean(), $m);
    return implode(', ', array_map(fn($k, $v) => "$k $v", $m[1], $m[2])) . "\n";
}
$o = rlock_test_options();
$p = $o['prefix'];
$m = RLock::multi(['a', 'b', 'c'], $o);
echo counters();
$m->lock();
echo "three keys, one acquisition: ", counters();
rlock_test_cmd('DEL', "{$p}c");
$m->unlock();
echo "an unlock that found a key gone: ", counters();
rlock_test_cmd('SET', "{$p}b", 'someone-else', 'PX', '20000');
$m->lock(100);
echo "a wait that timed out: ", counters();
var_dump(rlock_test_cmd('EXISTS', "{$p}a", "{$p}c"));
?>
--EXPECT--
Locks acquired 0, Acquires that waited 0, Waits that timed out 0, Locks lost 0
three keys, one acquisition: Locks acquired 1, Acquires that waited 0, Waits that timed out 0, Locks lost 0
an unlock that found a key gone: Locks acquired 1, Acquires that waited 0, Waits that timed out 0, Locks lost 1
a wait that timed out: Locks acquired 1, Acquires that waited 1, Waits that timed out 1, Locks lost 1
int(0)
