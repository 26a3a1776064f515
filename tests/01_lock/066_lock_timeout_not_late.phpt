--TEST--
lock($waitMs) on a held key returns false at $waitMs, one server or Redlock, not when an idle Redis gets round to the BLPOP's timeout (up to 100 ms later at hz 10)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$o = rlock_test_options();
$locks = [
    'one server' => new RLock('held', $o),
    'Redlock' => new RLock('held', ['servers' => [$o['server']], 'prefix' => $o['prefix']]),
];
foreach ($locks as $what => $l) {
    rlock_test_cmd('SET', $l->key(), 'another-holder', 'PX', '60000');
    $late = [];
    $results = [];
    // 110 ms: a wait that begins on a tick of Redis' 100 ms timer (where a late one ended)
    // times out 10 ms past the next, so a Redis late with the timeout is late by about 90 ms
    // every time (at 100 ms the timeout races the tick: up to half came out on time)
    for ($i = 0; $i < 10; $i++) {
        $t = hrtime(true);
        $results[] = $l->lock(110);
        $late[] = (hrtime(true) - $t) / 1e6 - 110;
    }
    // the waits were late by 90 ms each (Redis' 100 ms timer); about 10 ms each now. Counted,
    // not summed: a loaded machine may stall a few of them, not most
    $lateOnes = count(array_filter($late, fn ($ms) => $ms >= 50 * $slow));
    echo "$what: ", json_encode(array_unique($results)), ', not early: ', json_encode(min($late) >= -1),
        ', on time: ', json_encode($lateOnes <= 3), "\n";
    if ($lateOnes > 3) {
        echo "$lateOnes waits late by 50 ms or more: ", implode(', ', array_map('round', $late)), "\n";
    }
    $tag = fn (string $role) => rlock_test_companion($l->key(), $role);
    // nothing left behind: no count, no grant, no wake on a waiter's own list
    echo "left: ", rlock_test_cmd('EXISTS', $tag('waiters'), $tag('grants')), ' ',
        json_encode(rlock_test_cmd('KEYS', $tag('self-*'))), "\n";
    rlock_test_cmd('DEL', $l->key());
}
?>
--EXPECT--
one server: [false], not early: true, on time: true
left: 0 []
Redlock: [false], not early: true, on time: true
left: 0 []
