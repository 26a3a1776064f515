<?php
/* Holds per thread, and a request's end per thread (3 threads, 1 request each):
 * - thread 0 takes "a" twice (reentrant within its thread) and ends its request holding it;
 * - thread 2 takes "b" and holds it until thread 1 is done;
 * - thread 1 finds both taken (another thread's hold excludes it, in the same process), then
 *   waits for "a": thread 0's request end releases it, and "b" is still held by thread 2. */
require_once __DIR__ . '/zts.inc';

if ($phase !== 'request') {
    return;
}
switch ($thread) {
    case 0:
        $a = new RLock('a', zts_opts());
        $again = new RLock('a', zts_opts());
        zts_check($a->tryLock() && $again->tryLock(), 'thread 0: a reentrant lock of its own refused');
        zts_signal('a-held');
        zts_await('a-tried');
        // ends holding "a" twice: the request's end releases it
        break;
    case 2:
        $b = new RLock('b', zts_opts());
        zts_check($b->tryLock(), 'thread 2: tryLock(b) failed');
        $token = $b->token();
        zts_signal('b-held');
        zts_await('b-checked');
        zts_check(zts_held($b, $token), "thread 2: b no longer held after thread 0's request ended");
        zts_check($b->unlock(), 'thread 2: unlock(b) failed');
        break;
    case 1:
        zts_await('a-held');
        zts_await('b-held');
        $a = new RLock('a', zts_opts());
        $b = new RLock('b', zts_opts());
        zts_check(!$a->tryLock(), "thread 1: took a, held by thread 0");
        zts_check(!$b->tryLock(), "thread 1: took b, held by thread 2");
        zts_signal('a-tried');
        zts_check($a->lock(30000), "thread 1: a not released by thread 0's request end");
        zts_check(!$b->tryLock(), "thread 1: took b after thread 0's request end");
        zts_signal('b-checked');
        zts_check($a->unlock(), 'thread 1: unlock(a) failed');
        echo "holds: per thread; a request's end released its thread's holds only\n";
        break;
}
