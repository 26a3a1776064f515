<?php
/* A fork of a threaded process (3 threads, 1 request each): threads 0 and 2 hold watchdog
 * locks; thread 1 forks. The child (its one thread) finds them taken, takes and releases a
 * lock of its own, and exits; its end releases nothing of the parent's. In the parent the
 * holds stay, renewed past their ttl by the watchdog the fork restarted, and are released by
 * their threads. */
require_once __DIR__ . '/zts.inc';

if ($phase !== 'request') {
    return;
}
switch ($thread) {
    case 0:
    case 2:
        $lock = new RLock("f$thread", zts_opts(['ttl' => ZTS_TTL, 'watchdog' => true]));
        zts_check($lock->lock(), "thread $thread: lock() failed");
        $token = $lock->token();
        zts_signal("f$thread-held");
        zts_await("f$thread-release");
        zts_check(zts_held($lock, $token) && $lock->unlock(), "thread $thread: the hold did not outlast the fork");
        break;
    case 1:
        zts_await('f0-held');
        zts_await('f2-held');
        $tokens = [rlock_test_cmd('GET', ZTS_PREFIX . 'f0'), rlock_test_cmd('GET', ZTS_PREFIX . 'f2')];
        $pid = pcntl_fork();
        zts_check($pid >= 0, 'pcntl_fork() failed');
        if ($pid === 0) {
            $f0 = new RLock('f0', zts_opts());
            $mine = new RLock('child', zts_opts(['watchdog' => true]));
            zts_check(!$f0->tryLock(), "child: took f0, held by the parent's thread 0");
            zts_check($mine->lock() && $mine->unlock(), 'child: a lock of its own failed');
            zts_check($mine->tryLock(), 'child: a lock of its own failed');
            exit(0);  // holding "child": its request's end releases it
        }
        pcntl_waitpid($pid, $status);
        zts_check(rlock_test_exit($status) === 0, 'child: ' . rlock_test_exit($status));
        zts_check(rlock_test_cmd('EXISTS', ZTS_PREFIX . 'child') === 0, "the child's request end left its lock");
        // past the ttl: the parent's watchdog renews after the fork
        usleep(3 * ZTS_TTL * 1000);
        $now = [rlock_test_cmd('GET', ZTS_PREFIX . 'f0'), rlock_test_cmd('GET', ZTS_PREFIX . 'f2')];
        zts_check($now === $tokens, "the parent's holds did not outlast the fork and 3 ttls");
        zts_signal('f0-release');
        zts_signal('f2-release');
        echo "fork: the child of a threaded process works; the parent's holds stay\n";
        break;
}
