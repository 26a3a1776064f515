--TEST--
watchdog: the holds of every context are renewed (a suspended Fiber's and the main flow's, held for 3 times their ttl); a Fiber's end stops renewing its holds: released with auto_release, left to expire without it
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../watchdog.inc';
// valgrind slows the watchdog's thread too: a longer lease there, still held past it 3 times
$ttl = getenv('USE_ZEND_ALLOC') === '0' ? 1500 : 300;
$o = rlock_test_options(['ttl' => $ttl, 'watchdog' => true]);
$p = $o['prefix'];
$main = new RLock('main', $o);
var_dump($main->lock());
$f = new Fiber(function () use ($o) {
    $l = new RLock('fiber', $o);
    $k = new RLock('kept', ['auto_release' => false] + $o);
    Fiber::suspend($l->lock() && $k->lock());
    $GLOBALS['objects'] = [$l, $k];  // alive past the Fiber: only its end can let go
});
var_dump($f->start());
$min = PHP_INT_MAX;
for ($i = 0; $i < 20; $i++) {
    rlock_test_sleep(intdiv($ttl, 6));
    $min = min($min, rlock_test_cmd('PTTL', "{$p}main"), rlock_test_cmd('PTTL', "{$p}fiber"), rlock_test_cmd('PTTL', "{$p}kept"));
}
echo "every key renewed: ", var_export($min > 0 && $min <= $ttl, true), ", renewed now: ", rlock_test_info('Watchdog locks renewed now'), "\n";
$f->resume();
echo "the Fiber ended: released ", var_export(rlock_test_cmd('EXISTS', "{$p}fiber") === 0, true),
    ", kept ", var_export(rlock_test_cmd('EXISTS', "{$p}kept") === 1, true), ", renewed now: ", rlock_test_info('Watchdog locks renewed now'), "\n";
$deadline = hrtime(true) + 20 * $ttl * 1e6;
while (rlock_test_cmd('EXISTS', "{$p}kept") && hrtime(true) < $deadline) {
    rlock_test_sleep(20);
}
echo "kept expired: ", var_export(rlock_test_cmd('EXISTS', "{$p}kept") === 0, true), ", the main flow's still held: ", var_export($main->isAcquired(), true), "\n";
?>
--EXPECT--
bool(true)
bool(true)
every key renewed: true, renewed now: 3
the Fiber ended: released true, kept true, renewed now: 1
kept expired: true, the main flow's still held: true
