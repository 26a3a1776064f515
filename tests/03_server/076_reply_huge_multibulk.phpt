--TEST--
A reply whose array header announces 2^28 or 2^31 elements, or whose arrays add up to millions: refused at once with RLockConnectionException, nothing allocated for it
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../fake_redis.inc';
$nested = function () {
    // 2000 arrays of 2000 integers: each array small, four million elements in all
    yield "*2000\r\n";
    $inner = "*2000\r\n" . str_repeat(":1\r\n", 2000);
    for ($i = 0; $i < 2000; $i++) {
        yield $inner;
    }
};
// what => [reply, read_timeout]: a header alone is refused before any wait; the four million
// are read up to the cap (a million elements, which takes seconds under valgrind), so the
// read_timeout there is long enough that only the cap can end the read
$replies = [
    '*268435456' => ["*268435456\r\n", 1000],
    '*2147483647' => ["*2147483647\r\n", 1000],
    'nested *268435456' => ["*1\r\n*268435456\r\n", 1000],
    'four million in all' => [$nested, 30000],
];
foreach ($replies as $what => [$reply, $readTimeout]) {
    $fake = rlock_fake_redis(fn (array $argv) => strtoupper($argv[0]) === 'SET' ? (is_string($reply) ? $reply : $reply()) : ":1\r\n");
    $l = new RLock('k', ['server' => $fake['dsn'], 'read_timeout' => $readTimeout]);
    $t = hrtime(true);
    try {
        $got = var_export($l->tryLock(), true);
        echo "$what: $got\n";
    } catch (RLockException $e) {
        echo "$what: ", get_class($e), ': ', str_replace($fake['addr'], 'FAKE', $e->getMessage()), "\n";
    }
    $ms = (hrtime(true) - $t) / 1e6;
    // at once in fact; the bound is generous for a loaded machine and valgrind
    echo "$what: within read_timeout + 4 s: ", var_export($ms < $readTimeout + 4000, true), "\n";
    $fake['stop']();
}
?>
--EXPECT--
*268435456: RLockConnectionException: Redis FAKE: reply too large
*268435456: within read_timeout + 4 s: true
*2147483647: RLockConnectionException: Redis FAKE: reply too large
*2147483647: within read_timeout + 4 s: true
nested *268435456: RLockConnectionException: Redis FAKE: reply too large
nested *268435456: within read_timeout + 4 s: true
four million in all: RLockConnectionException: Redis FAKE: reply too large
four million in all: within read_timeout + 4 s: true
