--TEST--
lock($waitMs), synchronized($fn, $waitMs) and extend($ttlMs) at their limits: a ValueError naming the range of "wait" or "ttl", or they work
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$max = 2147483647;
$l = new RLock('arg-limits', rlock_test_options());
$calls = [
    'lock' => fn ($v) => $l->lock($v),
    'synchronized' => fn ($v) => $l->synchronized(fn () => 'ran', $v),
    'extend' => fn ($v) => $l->extend($v),
];
foreach ($calls as $name => $call) {
    $out = [];
    foreach ([-1, 0, $max, $max + 1, PHP_INT_MAX, PHP_INT_MIN] as $v) {
        $l->lock();
        try {
            $out[] = "$v " . var_export($call($v), true);
        } catch (ValueError $e) {
            $out[] = "$v refused";
            $message = $e->getMessage();
        }
        while ($l->token() !== null) {
            $l->unlock();
        }
    }
    echo "$name: ", implode(', ', $out), "\n  $message\n";
}
// before: extend(PHP_INT_MAX) reached Redis, which refused it ("invalid expire time")
$l->lock();
var_dump($l->extend($max), rlock_test_cmd('PTTL', $l->key()) > $max - 60000, $l->unlock());
?>
--EXPECT--
lock: -1 refused, 0 true, 2147483647 true, 2147483648 refused, 9223372036854775807 refused, -9223372036854775808 refused
  RLock::lock(): Argument #1 ($waitMs) must be between 0 and 2147483647 (milliseconds)
synchronized: -1 refused, 0 'ran', 2147483647 'ran', 2147483648 refused, 9223372036854775807 refused, -9223372036854775808 refused
  RLock::synchronized(): Argument #2 ($waitMs) must be between 0 and 2147483647 (milliseconds)
extend: -1 refused, 0 refused, 2147483647 true, 2147483648 refused, 9223372036854775807 refused, -9223372036854775808 refused
  RLock::extend(): Argument #1 ($ttlMs) must be between 100 and 2147483647 (milliseconds)
bool(true)
bool(true)
bool(true)
