--TEST--
100,000 distinct keys keep the statistics table at its set size: the mapping never grows, the rest is summed under "other"
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
rlock.stats_keys=32
--FILE--
<?php
require __DIR__ . '/../config.inc';
// under valgrind (USE_ZEND_ALLOC=0) a tenth: the same bound, proven with fewer round trips
$n = getenv('USE_ZEND_ALLOC') === '0' ? 10000 : 100000;
$before = rlock_status();
$o = rlock_test_options(['reentrant' => false]);
$hot = new RLock('hot', $o);
for ($i = 0; $i < $n; $i++) {
    $l = new RLock("k$i", $o);
    $l->tryLock() || die("tryLock k$i failed\n");
    $l->unlock();
    if ($i % 10 === 0) {
        // one key in eleven is the same: more than a slot's share (1/32), the sketch keeps it, exactly
        $hot->tryLock() || die("hot\n");
        $hot->unlock();
    }
}
$s = rlock_status();
echo "size: ", $s['table']['keys'], ", bytes unchanged: ", var_export($s['table']['bytes'] === $before['table']['bytes'], true), "\n";
echo "tracked at most the size: ", var_export($s['table']['tracked'] <= 32 && count($s['keys']) === $s['table']['tracked'], true), "\n";
echo "acquires: pool ", $s['acquires'] === $n + $n / 10 ? 'n + n/10' : $s['acquires'], ", keys + other ",
    array_sum(array_column($s['keys'], 'acquires')) + $s['other']['acquires'] === $s['acquires'] ? 'the same' : 'differ', "\n";
echo "the hot key tracked, its count exact: ", var_export(($s['keys'][$hot->key()]['acquires'] ?? null) === $n / 10, true), "\n";
echo "the hottest first: ", var_export(array_key_first($s['keys']) === $hot->key(), true), "\n";
echo "evictions: ", var_export($s['table']['evictions'] >= $n - 32, true), "\n";
?>
--EXPECT--
size: 32, bytes unchanged: true
tracked at most the size: true
acquires: pool n + n/10, keys + other the same
the hot key tracked, its count exact: true
the hottest first: true
evictions: true
