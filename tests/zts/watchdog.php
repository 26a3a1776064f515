<?php
/* The watchdog renews every thread's leases: each request of each thread holds a lock for 3
 * ttls, its key still its own all along, and releases it. */
require_once __DIR__ . '/zts.inc';

if ($phase !== 'request') {
    return;
}
$lock = new RLock("w$thread", zts_opts(['ttl' => ZTS_TTL, 'watchdog' => true]));
zts_check($lock->lock(), "thread $thread: lock() failed");
$token = $lock->token();
// and a Redlock lock over three databases of the test server as its masters: a group the
// thread renews leg by leg, beside the locks on one server (issue 31)
$masters = [RLOCK_TEST_DSN, RLOCK_TEST_DSN . '/1', RLOCK_TEST_DSN . '/2'];
$redlock = new RLock("wr$thread", ['servers' => $masters, 'prefix' => ZTS_PREFIX, 'ttl' => ZTS_TTL, 'watchdog' => true]);
zts_check($redlock->lock(), "thread $thread: the Redlock lock() failed");
// holding past the ttl is what is tested: time must pass
$end = hrtime(true) + 3 * ZTS_TTL * 1000000;
while (hrtime(true) < $end) {
    usleep(50000);
    zts_check(zts_held($lock, $token), "thread $thread, request $request: the lease ran out while held");
    zts_check($redlock->isAcquired(), "thread $thread, request $request: the Redlock lease ran out while held");
}
zts_check(!$lock->lost() && $lock->unlock(), "thread $thread: unlock() failed");
zts_check(!$redlock->lost() && $redlock->unlock(), "thread $thread: the Redlock unlock() failed");
if ($thread === 0 && $request === $requests - 1) {
    echo "watchdog: $threads threads x $requests requests held 3 ttls each\n";
}
