--TEST--
watchdog with "servers" (Redlock) and fencing: a master that lost the key (restarted without persistence: FLUSHALL here) gets back, with the key, its fencing counter at the holder's token, kept past the lease, as extend()'s heal gives it (phpt 748): the counter keeps the next token past this one on that master should its clock be behind (lib/issue.lua). Before, the key came back and the counter did not
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../watchdog.inc';
$s = rlock_test_slow();
$m = [rlock_test_own_server(), rlock_test_own_server(), rlock_test_own_server()];
// a lease of 3 s: renewed every second, it outlives a renewal 2 s late on a loaded machine (with
// 1 s, one fell through once beside a CI run: the hold lost, the heals never came)
$ttl = 3000 * $s;
$o = ['servers' => array_column($m, 'dsn'), 'ttl' => $ttl, 'fencing' => true, 'watchdog' => true,
    'prefix' => 'f866:'];
$l = new RLock('a', $o);
var_dump($l->tryLock());
$key = $l->key();
$fence = rlock_test_companion($key, 'fence');
$token = $l->fencingToken();
// whether master i has the key of the lock $l is now, under its token
$ours = function (int $i) use ($m, &$l): bool {
    return $m[$i]['cmd']('GET', $l->key()) === $l->token();
};
// master i restarts (with what restore puts there, in the same MULTI: before any heal), and
// its heal is awaited, with a deadline
$restart = function (int $i, array $restore = []) use ($m, $ours, $s): bool {
    $m[$i]['cmd']('MULTI');
    $m[$i]['cmd']('FLUSHALL');
    if ($restore) {
        $m[$i]['cmd'](...$restore);
    }
    $m[$i]['cmd']('EXEC');
    for ($deadline = hrtime(true) + 10e9 * $s; !$ours($i) && hrtime(true) < $deadline;) {
        rlock_test_sleep(10);
    }
    return $ours($i);
};

// B, then C restart: each heal sets the key there again, and the counter back to the
// holder's token, kept past the lease as an acquire keeps it
foreach ([1, 2] as $i) {
    echo "healed: ", json_encode($restart($i)), ", counter at the token: ",
        json_encode($m[$i]['cmd']('GET', $fence) === (string) $token), ", kept past the lease: ",
        json_encode($m[$i]['cmd']('PTTL', $fence) > $ttl), "\n";
}
// a counter found above the token (raised since by another's issue: no heal then, but a
// counter is never lowered) stays
echo "healed: ", json_encode($restart(1, ['SET', $fence, (string) ($token + 1000)])), ", counter kept above: ",
    json_encode($m[1]['cmd']('GET', $fence) === (string) ($token + 1000)), "\n";
// a counter of another type (a user's doing) is left as it is, and the heal goes on
echo "healed: ", json_encode($restart(2, ['RPUSH', $fence, 'x'])), ", counter left alone: ",
    json_encode($m[2]['cmd']('TYPE', $fence) === 'list'), "\n";
var_dump($l->lost(), $l->isAcquired(), $l->fencingToken() === $token);
var_dump($l->unlock());

// the hold's fence, not the object's option: a fenced hold re-entered by an object without
// fencing (and with the watchdog) heals the counter all the same, by the watchdog and by
// extend()
$outer = new RLock('b', ['fencing' => true, 'watchdog' => false] + $o);
$inner = new RLock('b', ['fencing' => false] + $o);
var_dump($outer->tryLock(), $inner->tryLock());
[$l, $fence, $token] = [$outer, rlock_test_companion($outer->key(), 'fence'), $outer->fencingToken()];
echo "healed: ", json_encode($restart(0)), ", counter at the token: ",
    json_encode($m[0]['cmd']('GET', $fence) === (string) $token), "\n";
// (an extend() puts the watchdog's next round a third of the lease away: the heal below is
// extend()'s)
$inner->extend();
$m[1]['cmd']('FLUSHALL');
var_dump($inner->extend());
echo "extend healed: ", json_encode($ours(1)), ", counter at the token: ",
    json_encode($m[1]['cmd']('GET', $fence) === (string) $token), "\n";
var_dump($inner->unlock(), $outer->unlock());
?>
--EXPECT--
bool(true)
healed: true, counter at the token: true, kept past the lease: true
healed: true, counter at the token: true, kept past the lease: true
healed: true, counter kept above: true
healed: true, counter left alone: true
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
healed: true, counter at the token: true
bool(true)
extend healed: true, counter at the token: true
bool(true)
bool(true)
