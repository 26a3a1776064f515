--TEST--
lock($waitMs) on a held key returns false at $waitMs, one server or Redlock, not when an idle Redis gets round to the BLPOP's timeout (up to 100 ms later at hz 10)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$slow = getenv('USE_ZEND_ALLOC') === '0' ? 10 : 1;
$o = rlock_test_options();
$locks = [
    'one server' => new RLock('held', $o),
    'Redlock' => new RLock('held', ['servers' => [$o['server']], 'prefix' => $o['prefix']]),
];
foreach ($locks as $what => $l) {
    rlock_test_cmd('SET', $l->key(), 'another-holder', 'PX', '60000');
    $late = [];
    $results = [];
    for ($i = 0; $i < 10; $i++) {
        $t = hrtime(true);
        $results[] = $l->lock(100);
        $late[] = (hrtime(true) - $t) / 1e6 - 100;
    }
    // 10 waits were late by 50 ms on average (Redis' 100 ms timer); a few ms each now
    $total = array_sum($late);
    echo "$what: ", json_encode(array_unique($results)), ', not early: ', json_encode(min($late) >= -1),
        ', on time: ', json_encode($total < 250 * $slow), "\n";
    if ($total >= 250 * $slow) {
        echo "late by $total ms in all: ", implode(', ', array_map('round', $late)), "\n";
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
