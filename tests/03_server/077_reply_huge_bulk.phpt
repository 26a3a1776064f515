--TEST--
A reply announcing a 2 GB string, or a status or error line that never ends, streamed without end: refused with RLockConnectionException once it outgrows any reply of ours, not buffered
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../fake_redis.inc';
// a header, then 1 MiB after 1 MiB (512 MiB at most, so that a client that buffers it all
// ends some day)
$stream = function (string $header) {
    yield $header;
    $chunk = str_repeat('x', 1 << 20);
    for ($i = 0; $i < 512; $i++) {
        yield $chunk;
    }
};
$headers = [
    '$2147483647' => "\$2147483647\r\n",
    '$9223372036854775807' => "\$9223372036854775807\r\n",
    'status line' => '+',
    'error line' => '-ERR ',
];
// long enough that only the cap can end the read: 32 MiB take seconds to stream under valgrind
$readTimeout = 30000;
foreach ($headers as $what => $header) {
    $fake = rlock_fake_redis(fn (array $argv) => strtoupper($argv[0]) === 'SET' ? $stream($header) : ":1\r\n");
    $l = new RLock('k', ['server' => $fake['dsn'], 'read_timeout' => $readTimeout]);
    $t = hrtime(true);
    try {
        $got = var_export($l->tryLock(), true);
        echo "$what: $got\n";
    } catch (RLockException $e) {
        echo "$what: ", get_class($e), ': ', str_replace($fake['addr'], 'FAKE', $e->getMessage()), "\n";
    }
    $ms = (hrtime(true) - $t) / 1e6;
    echo "$what: within read_timeout + 8 s: ", var_export($ms < $readTimeout + 8000, true), "\n";
    $fake['stop']();
}
?>
--EXPECT--
$2147483647: RLockConnectionException: Redis FAKE: reply too large
$2147483647: within read_timeout + 8 s: true
$9223372036854775807: RLockConnectionException: Redis FAKE: reply too large
$9223372036854775807: within read_timeout + 8 s: true
status line: RLockConnectionException: Redis FAKE: reply too large
status line: within read_timeout + 8 s: true
error line: RLockConnectionException: Redis FAKE: reply too large
error line: within read_timeout + 8 s: true
