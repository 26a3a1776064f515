--TEST--
Redlock with fencing: an acquire whose counter raise fell short of a quorum is tried again within the wait, as after a split vote, and wins once a quorum raised; an RLockException naming the master when every raise failed
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../fake_redis.inc';
/* A fake master that grants every acquire (token 5) and releases; it refuses the raise of
 * the fencing counter the first $refuse times (-1: always). */
function fake_master(int $refuse): array
{
    return rlock_fake_redis(function (array $argv) use (&$refuse): string {
        if (!str_starts_with(strtoupper($argv[0] ?? ''), 'EVAL')) {
            return "+OK\r\n";
        }
        if ($argv[2] === '4' || $argv[2] === '5') {
            // acquire (lock/acquire.lua: 4 keys, then the token and the ttl; redlock/acquire.lua:
            // 5 keys and 8 arguments) or release (5 keys, fewer arguments)
            $acquire = count($argv) === 16 || preg_match('/^[0-9]{1,15}$/', $argv[8]);
            return $acquire ? rlock_resp([1, $argv[3 + (int) $argv[2]], 5]) : ":1\r\n";
        }
        if ($refuse !== 0) {
            $refuse--;
            return "-ERR fake: the counter's raise refused\r\n";
        }
        return ":1\r\n";
    });
}
$raises = fn (array $fake): int => count(array_filter($fake['commands'](), fn ($c) => $c[2] === '2'));

// A real master held by another; the fake refuses the first raise: the second attempt wins
$a = rlock_test_own_server();
$b = rlock_test_own_server();
$c = fake_master(1);
$o = ['servers' => [$a['dsn'], $b['dsn'], $c['dsn']], 'fencing' => true, 'retry_delay' => 10, 'auto_release' => false];
$l = new RLock('f161', $o);
$b['cmd']('SET', $l->key(), 'another', 'PX', '60000');
var_dump($l->lock(10000), $l->fencingToken() > 5, $raises($c));
$l->unlock();

// two fakes that always refuse the raise, the real master held by another: an error
$d = fake_master(-1);
$e = fake_master(-1);
$l = new RLock('f161', ['servers' => [$d['dsn'], $e['dsn'], $b['dsn']], 'fencing' => true, 'auto_release' => false]);
try {
    var_dump($l->tryLock());
} catch (RLockException $ex) {
    echo get_class($ex), ': ', str_replace([$d['addr'], $e['addr']], 'FAKE', $ex->getMessage()), "\n";
}
var_dump($raises($d), $raises($e));
?>
--EXPECT--
bool(true)
bool(true)
int(2)
RLockException: Redis quorum: 2 of 3 masters failed, first Redis FAKE: ERR fake: the counter's raise refused
int(1)
int(1)
