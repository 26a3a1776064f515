--TEST--
lock() and lock(null) wait as long as option "wait" says (default 0: not at all); lock(0) never waits
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();

function timed(callable $f): array {
    $t = microtime(true);
    $r = $f();
    return [$r, (microtime(true) - $t) * 1000];
}

$default = new RLock('w', rlock_test_options());
rlock_test_cmd('SET', $default->key(), 'someone-else', 'PX', '20000');
[$r, $ms] = timed(fn() => $default->lock());
// quick: 1 s (a first connect, a loaded machine's turn), against a wait of 3 s or the 20 s lease
echo "default: ", var_export($r, true), ", quick: ", var_export($ms < 1000 * $slow, true), "\n";

$waiting = new RLock('w', rlock_test_options(['wait' => 3000]));
[$r, $ms] = timed(fn() => $waiting->lock());
echo "wait 3000, lock(): ", var_export($r, true), ", waited: ", var_export($ms >= 2900 && $ms < 3000 + 1000 * $slow, true), "\n";
[$r, $ms] = timed(fn() => $waiting->lock(null));
echo "wait 3000, lock(null): ", var_export($r, true), ", waited: ", var_export($ms >= 2900 && $ms < 3000 + 1000 * $slow, true), "\n";
[$r, $ms] = timed(fn() => $waiting->lock(0));
echo "wait 3000, lock(0): ", var_export($r, true), ", quick: ", var_export($ms < 1000 * $slow, true), "\n";

try {
    $waiting->lock(-1);
} catch (ValueError $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
rlock_test_cmd('DEL', $default->key());
var_dump($waiting->lock(), $waiting->unlock());
?>
--EXPECT--
default: false, quick: true
wait 3000, lock(): false, waited: true
wait 3000, lock(null): false, waited: true
wait 3000, lock(0): false, quick: true
ValueError: RLock::lock(): Argument #1 ($waitMs) must be between 0 and 2147483647 (milliseconds)
bool(true)
bool(true)
