--TEST--
Redlock with fencing: an acquire whose fencing counters were raised on fewer than a quorum of masters is not won (released everywhere), so a later holder never gets a token below an earlier one when the masters' clocks differ
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../fake_redis.inc';
/* Masters: A, a real Redis whose clock is far ahead (simulated: its counter preset ahead of
 * the others' clocks), B, a real Redis, and C, a fake that grants every acquire with token 5
 * and answers the counter's raise with an error. */
$a = rlock_test_own_server();
$b = rlock_test_own_server();
$c = rlock_fake_redis(function (array $argv): string {
    if (!str_starts_with(strtoupper($argv[0] ?? ''), 'EVAL')) {
        return "+OK\r\n";
    }
    if ($argv[2] === '4' && preg_match('/^[0-9]{1,15}$/', $argv[8])) {
        return rlock_resp([1, $argv[7], 5]);        // acquire: granted
    }
    if ($argv[2] === '5') {
        return ":1\r\n";                             // release (its 5 keys)
    }
    return "-ERR fake: the counter's raise refused\r\n";
});
$o = ['servers' => [$a['dsn'], $b['dsn'], $c['dsn']], 'fencing' => true, 'ttl' => 10000, 'auto_release' => false];
$key = 'f160';
$lockKey = (new RLock($key, $o))->key();
$fence = rlock_test_companion($lockKey, 'fence');
[$s, $u] = $a['cmd']('TIME');
$ahead = ((int) $s + 86400) * 1000000 + (int) $u;   // A's clock: a day ahead
$a['cmd']('SET', $fence, (string) $ahead, 'PX', '600000');

$tokens = [];
$take = function (string $who) use ($key, $o, &$tokens): void {
    $l = new RLock($key, $o);
    $won = $l->tryLock();
    echo "$who: ", var_export($won, true), "\n";
    if ($won) {
        $tokens[] = $l->fencingToken();
        $l->unlock();
    }
};

// W1: A and C grant (B is held by another); the raise reaches A only: 1 of the quorum of 2
$b['cmd']('SET', $lockKey, 'another', 'PX', '60000');
$take('W1, the raise on 1 master');
var_dump($a['cmd']('EXISTS', $lockKey), $a['cmd']('GET', $fence) === (string) ($ahead + 1));

// W2: B and C grant (A is held by another): again the raise reaches B only
$b['cmd']('DEL', $lockKey);
$a['cmd']('SET', $lockKey, 'another', 'PX', '60000');
$take('W2, the raise on 1 master');
var_dump($b['cmd']('EXISTS', $lockKey));

// W3: all three grant; the raise reaches A and B, a quorum: won, past A's counter
$a['cmd']('DEL', $lockKey);
$take('W3, the raise on 2 masters');
var_dump($tokens[count($tokens) - 1] > $ahead);
var_dump($b['cmd']('GET', $fence) === (string) $tokens[count($tokens) - 1]);

// every holder's token above the one before
for ($i = 1, $up = true; $i < count($tokens); $i++) {
    $up = $up && $tokens[$i] > $tokens[$i - 1];
}
echo count($tokens), " holder(s), tokens increasing: ", var_export($up, true), "\n";
?>
--EXPECT--
W1, the raise on 1 master: false
int(0)
bool(true)
W2, the raise on 1 master: false
int(0)
W3, the raise on 2 masters: true
bool(true)
bool(true)
1 holder(s), tokens increasing: true
