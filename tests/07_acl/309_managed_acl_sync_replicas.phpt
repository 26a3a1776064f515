--TEST--
managed Redis: sync_replicas where WAIT is refused (an ACL without it: NOPERM; a service without it: unknown command) fails the first acquire at once with an RLockException that names WAIT and sync_replicas, not a hang, and the lock is given back
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../managed.inc';
$slow = rlock_test_slow();
$managed = rlock_test_managed_server();
$serverless = rlock_test_own_server('--rename-command WAIT ""');
foreach (['ACL without WAIT' => [$managed, $managed['user_dsn']], 'no WAIT command' => [$serverless, $serverless['dsn']]]
        as $what => [$srv, $dsn]) {
    $l = new RLock('r', ['server' => $dsn, 'sync_replicas' => 1, 'read_timeout' => 1000]);
    foreach (['lock' => fn () => $l->lock(2000 * $slow), 'tryLock' => fn () => $l->tryLock()] as $call => $f) {
        $t = hrtime(true);
        try {
            var_dump($f());
        } catch (RLockConnectionException $e) {
            echo "$what, $call: ", get_class($e), ': ', $e->getMessage(), "\n";
        } catch (RLockException $e) {
            $m = $e->getMessage();
            echo "$what, $call: ", get_class($e), ', names the server, WAIT and sync_replicas: ',
                var_export(str_starts_with($m, "Redis 127.0.0.1:{$srv['port']}: ") && stripos($m, "'wait'") !== false
                    && str_contains($m, 'sync_replicas'), true), "\n";
        }
        /* at once: well within read_timeout */
        echo "  within read_timeout: ", var_export((hrtime(true) - $t) / 1e6 < 1000 * $slow, true),
            ", keys left: ", ($srv['cmd'])('DBSIZE'), ", held: ", var_export($l->isAcquired(), true), "\n";
    }
}
echo "refused: ", json_encode(rlock_test_managed_refused($managed)), "\n";
?>
--EXPECT--
ACL without WAIT, lock: RLockException, names the server, WAIT and sync_replicas: true
  within read_timeout: true, keys left: 0, held: false
ACL without WAIT, tryLock: RLockException, names the server, WAIT and sync_replicas: true
  within read_timeout: true, keys left: 0, held: false
no WAIT command, lock: RLockException, names the server, WAIT and sync_replicas: true
  within read_timeout: true, keys left: 0, held: false
no WAIT command, tryLock: RLockException, names the server, WAIT and sync_replicas: true
  within read_timeout: true, keys left: 0, held: false
refused: ["managed: wait (command)"]
