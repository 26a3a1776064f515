--TEST--
A blocked lock() does not poll: a 1.5 s wait costs Redis a handful of commands, not one per retry_delay
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
// the round trips a waiter makes: scripts and blocking pops (commands run inside a script
// are counted by Redis too, so the total would not tell round trips)
function commands(): int {
    preg_match_all('/^cmdstat_(?:evalsha|eval|evalsha_ro|eval_ro|fcall|blpop|brpop|blmove|bzpopmin|xread):calls=(\d+)/m', rlock_test_cmd('INFO', 'commandstats'), $m);
    return array_sum($m[1]);
}
$l = new RLock('patient', rlock_test_options(['retry_delay' => 10]));

foreach (['a holder with a lease' => ['PX', '60000'], 'a holder without expiry' => []] as $what => $px) {
    rlock_test_cmd('SET', $l->key(), 'someone-else', ...$px);
    $before = commands();
    $r = $l->lock(1500);
    $n = commands() - $before;
    echo "$what: ", var_export($r, true), ", few commands: ", var_export($n <= 6, true), $n > 6 ? " ($n)" : '', "\n";
}
rlock_test_cmd('DEL', $l->key());
?>
--EXPECT--
a holder with a lease: false, few commands: true
a holder without expiry: false, few commands: true
