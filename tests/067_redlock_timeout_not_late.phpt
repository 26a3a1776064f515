--TEST--
Redlock (option "servers"): lock($waitMs) on a held key returns false at $waitMs, not when an idle master gets round to the BLPOP's timeout
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$slow = getenv('USE_ZEND_ALLOC') === '0' ? 10 : 1;
$o = rlock_test_options();
$l = new RLock('held', ['servers' => [$o['server']], 'prefix' => $o['prefix']]);
rlock_test_cmd('SET', $l->key(), 'another-holder', 'PX', '60000');

$late = [];
$results = [];
for ($i = 0; $i < 10; $i++) {
    $t = hrtime(true);
    $results[] = $l->lock(100);
    $late[] = (hrtime(true) - $t) / 1e6 - 100;
}
var_dump(array_unique($results));
var_dump(min($late) >= -1);
// 10 waits late by 50 ms on average before (Redis' 100 ms timer); a few ms each now
$total = array_sum($late);
var_dump($total < 250 * $slow);
if ($total >= 250 * $slow) {
    echo "late by $total ms in all: ", implode(', ', array_map('round', $late)), "\n";
}
$tag = '{' . $l->key() . '}';
var_dump(rlock_test_cmd('EXISTS', "$tag:waiters", "$tag:grants"));
rlock_test_cmd('DEL', $l->key());
?>
--EXPECT--
array(1) {
  [0]=>
  bool(false)
}
bool(true)
bool(true)
int(0)
