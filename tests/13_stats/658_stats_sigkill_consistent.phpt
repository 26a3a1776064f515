--TEST--
Children killed with SIGKILL in the middle of recording (churning a full table) leave a consistent table: readable, its size kept, the dead's holds and waits gone from the gauges, counting exact afterwards
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--INI--
rlock.stats_keys=16
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$o = rlock_test_options(['reentrant' => false, 'ttl' => 60000]);
$await = function (callable $ok, string $what) use ($slow) {
    for ($deadline = microtime(true) + 20 * $slow; !$ok(); usleep(2000)) {
        if (microtime(true) > $deadline) {
            exec('kill -KILL ' . implode(' ', $GLOBALS['kids']));
            die("never: $what\n");
        }
    }
};
$mine = new RLock('parent-holds', $o);
var_dump($mine->lock());

$kids = [];
$parent = getmypid();
for ($c = 0; $c < 2; $c++) {
    if (($pid = pcntl_fork()) === 0) {
        $hold = new RLock("child-holds-$c", $o);
        $hold->lock();
        for ($i = 0; $i % 256 || rlock_test_alive($parent); $i++) {     // distinct keys until killed: claims, evictions, moves to "other"
            $l = new RLock("churn-$c-$i", $o);
            $l->tryLock();
            $l->unlock();
        }
        exit(1);   // (the parent died: no orphan)
    }
    $kids[] = $pid;
}
if (($pid = pcntl_fork()) === 0) {
    (new RLock('parent-holds', $o))->lock(60000);   // blocks until killed
    exit(0);
}
$kids[] = $pid;

// the parent's hold and the two children's, and their churn's at times
$await(fn () => ($s = rlock_status(false))['acquires'] > 2000 / $slow && $s['holds'] >= 3 && $s['waiters'] === 1,
    'the children churn, hold and wait: ' . json_encode(rlock_status(false)));
echo "while they run: holds>=3 waiters=1\n";
exec('kill -KILL ' . implode(' ', $kids));
foreach ($kids as $pid) {
    pcntl_waitpid($pid, $status);
    echo "child: ", rlock_test_exit($status), "\n";
}

$s = rlock_status();
echo "size kept: ", $s['table']['keys'], ", tracked at most that: ", var_export($s['table']['tracked'] <= 16 && count($s['keys']) === $s['table']['tracked'], true), "\n";
echo "the dead hold and wait no more: holds={$s['holds']} waiters={$s['waiters']}\n";
echo "rows never exceed the pool: ", var_export(array_sum(array_column($s['keys'], 'acquires')) + $s['other']['acquires'] <= $s['acquires'], true), "\n";
$names = array_filter(array_keys($s['keys']), fn ($k) => is_string($k) && (str_starts_with($k, $o['prefix']) || $k[0] === '#'));
echo "every key named (or by its hash, a writer killed mid-name): ", var_export(count($names) === count($s['keys']), true), "\n";
$before = $s['acquires'];
for ($i = 0; $i < 10; $i++) {
    $l = new RLock("after-$i", $o);
    $l->tryLock();
    $l->unlock();
}
$s = rlock_status();
echo "counting goes on, exactly: ", $s['acquires'] - $before, "\n";
echo "the parent's hold: ", $s['holds'], "\n";
var_dump($mine->unlock());
echo "metrics readable: ", var_export(str_contains(rlock_metrics(), 'rlock_holds 0'), true), "\n";
?>
--EXPECT--
bool(true)
while they run: holds>=3 waiters=1
child: signal 9
child: signal 9
child: signal 9
size kept: 16, tracked at most that: true
the dead hold and wait no more: holds=1 waiters=0
rows never exceed the pool: true
every key named (or by its hash, a writer killed mid-name): true
counting goes on, exactly: 10
the parent's hold: 1
bool(true)
metrics readable: true
