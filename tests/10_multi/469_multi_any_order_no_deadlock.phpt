--TEST--
Two processes locking the same keys through RLock::multi in opposite orders, 200 times each, never deadlock and never hold them together
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['ttl' => 10000]);
$p = $o['prefix'];
// no test connection before the forks: each child opens its own
$pids = [];
foreach ([['x', 'y', 'z'], ['z', 'y', 'x']] as $keys) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        $m = RLock::multi($keys, $o);
        for ($i = 0; $i < 200; $i++) {
            if (!$m->lock(5000)) {
                exit(1);
            }
            // a read-modify-write the lock guards
            $n = (int) rlock_test_cmd('GET', "{$p}n");
            rlock_test_cmd('SET', "{$p}n", (string) ($n + 1));
            $m->unlock();
        }
        exit(0);
    }
    $pids[] = $pid;
}
foreach ($pids as $pid) {
    pcntl_waitpid($pid, $status);
    var_dump(rlock_test_exit($status));
}
var_dump(rlock_test_cmd('GET', "{$p}n"));
?>
--EXPECT--
int(0)
int(0)
string(3) "400"
