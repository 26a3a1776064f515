--TEST--
rlock.stats_keys=0 turns statistics off: no shared memory, rlock_status() says so, rlock_metrics() is a comment, phpinfo() shows this process' counters
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
rlock.stats_keys=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
$l = new RLock('off', rlock_test_options());
var_dump($l->lock(1000), $l->unlock());
var_dump(rlock_status(), rlock_metrics(), rlock_status_reset());
ob_start();
phpinfo(INFO_MODULES);
$info = ob_get_clean();
foreach (explode("\n", $info) as $line) {
    if (str_starts_with($line, 'Statistics =>') || str_starts_with($line, 'Locks acquired =>')) {
        echo $line, "\n";
    }
}
?>
--EXPECT--
bool(true)
bool(true)
array(2) {
  ["enabled"]=>
  bool(false)
  ["table"]=>
  array(2) {
    ["keys"]=>
    int(0)
    ["bytes"]=>
    int(0)
  }
}
string(49) "# rlock: statistics are off (rlock.stats_keys=0)
"
NULL
Statistics => this process' only (rlock.stats_keys=0)
Locks acquired => 1
