<?php
/* Exclusion across threads: every request of every thread takes one lock and increments a
 * counter in Redis by a read and a write; no two are inside at once, no increment is lost. */
require_once __DIR__ . '/zts.inc';

switch ($phase) {
    case 'setup':
        rlock_test_cmd('DEL', ZTS_PREFIX . 'count', ZTS_PREFIX . 'inside');
        break;
    case 'request':
        $lock = new RLock('counter', zts_opts(['wait' => 30000]));
        zts_check($lock->lock(), "thread $thread: lock() failed");
        zts_check(rlock_test_cmd('INCR', ZTS_PREFIX . 'inside') === 1, "thread $thread: another thread is inside");
        $n = (int) rlock_test_cmd('GET', ZTS_PREFIX . 'count');
        rlock_test_cmd('SET', ZTS_PREFIX . 'count', (string) ($n + 1));
        rlock_test_cmd('DECR', ZTS_PREFIX . 'inside');
        zts_check($lock->unlock(), "thread $thread: unlock() failed");
        break;
    case 'check':
        $n = (int) rlock_test_cmd('GET', ZTS_PREFIX . 'count');
        zts_check($n === $threads * $requests, "count $n, expected " . $threads * $requests);
        echo "exclusion: $threads threads x $requests requests, $n increments, none lost\n";
        break;
}
