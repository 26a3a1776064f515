--TEST--
RLock::release() with a token no hold was given leaks nothing: it refuses the token before it makes the keys it would try (each refused call lost them: 400,000 calls grew the process by tens of MB)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!is_readable('/proc/self/statm')) die('skip no /proc/self/statm'); ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options();

// resident memory (bytes): a leak of malloc'ed strings shows here, not in memory_get_usage()
function rss(): int
{
    return (int) explode(' ', file_get_contents('/proc/self/statm'))[1] * 4096;
}

// (under valgrind or ASan, without Zend's allocator, fewer calls: they report a leak
// themselves, and ASan's quarantine of freed blocks grows the process too: 100,000 calls, 11 MB)
$n = getenv('USE_ZEND_ALLOC') === '0' ? 20000 : 400000;
for ($i = 0; $i < 1000; $i++) {
    RLock::release('leak-check', 'not a token', $o);
}
$before = rss();
$released = 0;
for ($i = 0; $i < $n; $i++) {
    $released += (int) RLock::release('leak-check', 'not a token', $o);
    $released += (int) RLock::release($o['prefix'] . 'leak-check', '', $o);
}
$grew = rss() - $before;
echo "released: $released\n";
echo $grew < (8 << 20) ? "no leak\n" : "grew by $grew bytes\n";
?>
--EXPECT--
released: 0
no leak
