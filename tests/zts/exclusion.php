<?php
/* Exclusion across threads: every request of every thread takes one lock and increments a
 * counter in Redis by a read and a write; no two are inside at once, no increment is lost.
 * Every other request does it in a Fiber whose end releases the lock. */
require_once __DIR__ . '/zts.inc';

switch ($phase) {
    case 'setup':
        rlock_test_cmd('DEL', ZTS_PREFIX . 'count', ZTS_PREFIX . 'inside');
        break;
    case 'request':
        // every other request takes the lock in a Fiber that ends holding it: its end releases
        $inFiber = $request % 2 === 1;
        $section = function () use ($thread, $inFiber): void {
            $lock = new RLock('counter', zts_opts(['wait' => 30000]));
            zts_check($lock->lock(), "thread $thread: lock() failed");
            zts_check(rlock_test_cmd('INCR', ZTS_PREFIX . 'inside') === 1, "thread $thread: another thread is inside");
            $n = (int) rlock_test_cmd('GET', ZTS_PREFIX . 'count');
            rlock_test_cmd('SET', ZTS_PREFIX . 'count', (string) ($n + 1));
            rlock_test_cmd('DECR', ZTS_PREFIX . 'inside');
            if ($inFiber) {
                // outlives the Fiber: the Fiber's end releases it
                $GLOBALS['held'] = [$lock, $lock->token()];
            } else {
                zts_check($lock->unlock(), "thread $thread: unlock() failed");
            }
        };
        if ($inFiber) {
            $fiber = new Fiber($section);
            $fiber->start();
            zts_check($fiber->isTerminated(), "thread $thread: the Fiber did not end");
            unset($fiber);
            [$lock, $token] = $GLOBALS['held'];
            zts_check(!zts_held($lock, $token), "thread $thread: the Fiber's end did not release its hold");
        } else {
            $section();
        }
        // each thread's persistent connection serves all its requests: none is left per
        // request. Per thread rlock's and this test's own, the main thread's, and room for
        // a test connection of a thread's last request that Redis has not seen closed yet.
        preg_match('/^connected_clients:(\d+)/m', rlock_test_cmd('INFO', 'clients'), $m);
        zts_check((int) $m[1] <= 3 * $threads + 1, "thread $thread, request $request: $m[1] clients connected");
        break;
    case 'check':
        $n = (int) rlock_test_cmd('GET', ZTS_PREFIX . 'count');
        zts_check($n === $threads * $requests, "count $n, expected " . $threads * $requests);
        echo "exclusion: $threads threads x $requests requests, $n increments, none lost\n";
        break;
}
