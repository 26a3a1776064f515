<?php
/* The statistics' gauge slot of the process, claimed by its threads at once: every thread takes
 * its first lock at the same moment (the first use of the slot by each), and while all hold
 * them rlock_status() counts every hold (no thread's claim zeroed another's count). */
require_once __DIR__ . '/zts.inc';

if ($phase !== 'request') {
    return;
}

/* Every thread waits here until all have come; $name apart for each barrier (a closure: the
 * main thread runs this file more than once). */
$barrier = function (string $name) use ($threads, $thread): void {
    if (rlock_test_cmd('INCR', ZTS_PREFIX . "barrier:$name") === $threads) {
        for ($t = 0; $t < $threads; $t++) {
            zts_signal("$name:$t");
        }
    }
    zts_await("$name:$thread");
};

$barrier("go:$request");
$lock = new RLock("s$thread", zts_opts());
zts_check($lock->tryLock(), "thread $thread: tryLock() failed");
$barrier("held:$request");
if ($thread === 0) {
    $holds = rlock_status()['holds'];
    zts_check($holds === $threads, "rlock_status()['holds'] is $holds while $threads threads hold a lock each");
}
$barrier("counted:$request");
zts_check($lock->unlock(), "thread $thread: unlock() failed");
if ($thread === 0 && $request === $requests - 1) {
    echo "stats: $threads threads claimed the process' slot at once; every hold counted\n";
}
