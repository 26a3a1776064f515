--TEST--
Statistics are shared with pcntl_fork() children: their acquires, waits and hand-overs add up in the parent's rlock_status()
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--INI--
rlock.stats_keys=64
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$o = rlock_test_options(['ttl' => 20000]);
$await = function (callable $ok, string $what) use ($slow) {
    for ($deadline = microtime(true) + 10 * $slow; !$ok(); usleep(2000)) {
        if (microtime(true) > $deadline) {
            die("never: $what\n");
        }
    }
};

// a waiter in a child, handed the lock by the parent's unlock
$l = new RLock('handed', $o);
var_dump($l->lock());
$pid = pcntl_fork();
if ($pid === 0) {
    $w = new RLock('handed', $o);
    $got = $w->lock(15000 * $slow);
    $w->unlock();
    exit($got ? 0 : 1);
}
// counted a waiter before its first round: wait until it blocks in Redis (queued), or the
// unlock could free the key before it queued, and it would take it with no hand-over
$await(fn () => rlock_status(false)['waiters'] === 1
    && preg_match('/^blocked_clients:[1-9]/m', rlock_test_cmd('INFO', 'clients')), 'the child waits');
echo "the parent holds, the child waits: holds=", rlock_status(false)['holds'], " waiters=1\n";
var_dump($l->unlock());
pcntl_waitpid($pid, $status);
echo "child: ", rlock_test_exit($status), "\n";
$k = rlock_status()['keys'][$l->key()];
echo "handed: acquires={$k['acquires']} contended={$k['contended']} waits={$k['waits']} handovers={$k['handovers']} timeouts={$k['timeouts']}\n";

// three children take one key 40 times each, waiting for each other
$kids = [];
for ($i = 0; $i < 3; $i++) {
    if (($pid = pcntl_fork()) === 0) {
        $m = new RLock('shared', $o);
        for ($n = 0; $n < 40; $n++) {
            if (!$m->lock(10000 * $slow)) {
                exit(1);
            }
            $m->unlock();
        }
        exit(0);
    }
    $kids[] = $pid;
}
foreach ($kids as $pid) {
    pcntl_waitpid($pid, $status);
    echo "child: ", rlock_test_exit($status), "\n";
}
$s = rlock_status();
$k = $s['keys'][(new RLock('shared', $o))->key()];
echo "shared: acquires={$k['acquires']} timeouts={$k['timeouts']} wait.count={$k['wait']['count']}\n";
echo "hand-overs are acquires that waited: ", var_export($k['handovers'] <= $k['waits'], true), "\n";
echo "pool: acquires={$s['acquires']} holds={$s['holds']} waiters={$s['waiters']}\n";
?>
--EXPECT--
bool(true)
the parent holds, the child waits: holds=1 waiters=1
bool(true)
child: 0
handed: acquires=2 contended=1 waits=1 handovers=1 timeouts=0
child: 0
child: 0
child: 0
shared: acquires=120 timeouts=0 wait.count=120
hand-overs are acquires that waited: true
pool: acquires=122 holds=0 waiters=0
