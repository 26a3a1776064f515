--TEST--
Redlock waiters in order: three processes queued one after another on 3 masters, each taking the lock 3 times (and queueing again right after each release), are served round robin, 1 2 3 1 2 3 1 2 3: a release does not let its holder barge back in
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--INI--
pcre.jit=0
--FILE--
<?php
// (the children share the test's connections to the masters: only the lock's holder uses them)
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$m = [rlock_test_own_server(), rlock_test_own_server(), rlock_test_own_server()];
$o = ['servers' => array_column($m, 'dsn'), 'ttl' => 30000, 'read_timeout' => 1000 * $slow, 'prefix' => 'f163:'];
$blocked = fn () => array_sum(array_map(fn ($s) => preg_match('/^blocked_clients:([0-9]+)/m', $s['cmd']('INFO', 'clients'), $x) ? (int) $x[1] : 0, $m));
$holder = new RLock('k', $o);
var_dump($holder->lock());
$pids = [];
for ($i = 1; $i <= 3; $i++) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        $w = new RLock('k', $o);
        for ($n = 0; $n < 3; $n++) {
            if (!$w->lock(30000 * $slow)) {
                exit(1);
            }
            $served = $m[0]['cmd']('RPUSH', 'f163:order', (string) $i);
            // the holder lets go once the others still to come wait again: a process that
            // released is not queued again at once (it may not run for a while on a loaded
            // machine), and one that comes back later is rightly served later
            for ($deadline = microtime(true) + 10 * $slow; $blocked() < min(2, 9 - $served);) {
                if (microtime(true) > $deadline) {
                    exit(2);
                }
                usleep(2000);
            }
            $w->unlock();
        }
        exit(0);
    }
    $pids[] = $pid;
    // the next one comes once this one waits
    for ($deadline = microtime(true) + 10 * $slow; $blocked() < $i;) {
        if (microtime(true) > $deadline) {
            die("waiter $i never blocked\n");
        }
        usleep(5000);
    }
}
var_dump($holder->unlock());
foreach ($pids as $pid) {
    pcntl_waitpid($pid, $status);
    echo rlock_test_exit($status), ' ';
}
echo "\n", implode(' ', $m[0]['cmd']('LRANGE', 'f163:order', '0', '-1')), "\n";
?>
--EXPECT--
bool(true)
bool(true)
0 0 0 
1 2 3 1 2 3 1 2 3
