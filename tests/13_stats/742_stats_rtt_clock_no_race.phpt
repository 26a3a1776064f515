--TEST--
Statistics' round-trip clock: the watchdog's thread and the request's share no clock reading (helgrind finds no race in rlock_now_ms() or conn_sent())
--EXTENSIONS--
rlock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
if (!is_executable('/usr/bin/valgrind')) die('skip valgrind not installed');
if (getenv('USE_ZEND_ALLOC') === '0' || preg_match('/asan|ubsan/', (string) getenv('LD_PRELOAD'))) {
    die('skip helgrind runs in the plain lane (not under valgrind nor a sanitizer)');
}
if (PHP_ZTS) die('skip NTS: in ZTS each thread has its own');
?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
/* A lock the watchdog's thread renews (every second: its 3 s lease outlasts a renewal late
 * under helgrind on a busy machine) while the request sends commands, timed one in four by
 * the statistics, until the thread has renewed 3 times: under helgrind. */
$script = sys_get_temp_dir() . '/rlock-742-' . getmypid() . '.php';
file_put_contents($script, '<?php
$o = ["server" => $argv[1], "prefix" => $argv[2]];
$w = new RLock("renewed", $o + ["ttl" => 3000, "watchdog" => true]);
$w->lock();
for ($deadline = microtime(true) + 120; rlock_status()["renewals"] < 3 && microtime(true) < $deadline;) {
    $l = new RLock("busy", $o);
    $l->lock();
    $l->unlock();
}
echo "renewed: ", rlock_status()["renewals"] >= 3 ? "yes" : "no", ", unlocked: ", var_export($w->unlock(), true), "\n";');
$o = rlock_test_options();
$cmd = 'USE_ZEND_ALLOC=0 valgrind --tool=helgrind --suppressions=' . escapeshellarg(__DIR__ . '/../helgrind.supp') . ' '
    . escapeshellarg(PHP_BINARY) . ' -n -d extension_dir=' . escapeshellarg(ini_get('extension_dir'))
    . ' -d extension=rlock -d rlock.stats_keys=16 ' . escapeshellarg($script) . ' '
    . escapeshellarg($o['server']) . ' ' . escapeshellarg($o['prefix']) . ' 2>&1';
$out = (string) shell_exec($cmd);
unlink($script);
preg_match('/renewed: .*/', $out, $m);
echo $m[0] ?? "no output:\n$out", "\n";
// each report: from "Possible data race" to the next blank report line
$races = preg_split('/^==\d+== -{10,}$/m', $out);
$clock = array_filter($races, fn ($r) => str_contains($r, 'Possible data race')
    && preg_match('/\b(rlock_now_ms|conn_sent|conn_timed|rlock_stats_now_us)\b/', $r));
echo "races on the clock: ", count($clock), "\n";
if ($clock) {
    echo reset($clock);
}
?>
--EXPECT--
renewed: yes, unlocked: true
races on the clock: 0
