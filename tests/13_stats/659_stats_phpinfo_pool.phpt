--TEST--
phpinfo() shows the pool's counters (a forked child's acquires, timeouts and lost locks included), not this process' alone
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--INI--
rlock.stats_keys=16
--FILE--
<?php
require __DIR__ . '/../config.inc';
function rows(): string
{
    ob_start();
    phpinfo(INFO_MODULES);
    $out = [];
    foreach (explode("\n", ob_get_clean()) as $line) {
        foreach (['Statistics', 'Locks acquired', 'Acquires that waited', 'Waits that timed out', 'Locks lost', 'Reconnects'] as $label) {
            if (str_starts_with($line, "$label => ")) {
                $out[] = $line;
            }
        }
    }
    return implode("\n", $out) . "\n";
}
$o = rlock_test_options(['reentrant' => false]);
$mine = new RLock('info', $o);
var_dump($mine->lock());
if (($pid = pcntl_fork()) === 0) {
    $l = new RLock('info', $o);
    $l->lock(100);                 // waits, times out
    $k = new RLock('info-child', $o);
    $k->lock();
    $k->lock();                    // (not reentrant: its own wait of 0, a contended try)
    rlock_test_cmd('DEL', $k->key());
    $k->unlock();                  // lost
    exit(0);
}
pcntl_waitpid($pid, $status);
echo "child: ", rlock_test_exit($status), "\n";
echo rows();
?>
--EXPECT--
bool(true)
child: 0
Statistics => the pool's (shared memory, rlock_status())
Locks acquired => 2
Acquires that waited => 1
Waits that timed out => 1
Locks lost => 1
Reconnects => 0
