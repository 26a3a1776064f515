--TEST--
RRateLimiter: the server's clock is the time: a process whose clock is an hour ahead (or a day behind) sees the same limit, refused alike with the same retry-after (faketime)
--EXTENSIONS--
rlock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
if (!is_executable('/usr/bin/faketime')) die('skip faketime (Debian package faketime) not installed');
if (!is_file(ini_get('extension_dir') . '/rlock.so')) die('skip rlock.so not in extension_dir');
// the sanitizer build's php (scripts/test.sh php-sanitized) preloads the sanitizer runtimes:
// libfaketime in the child hangs their start (before or after them in LD_PRELOAD alike); the
// plain and valgrind runs run this test (scripts/lib/deps.sh rlock_phpt_skips allows this skip)
if (preg_match('~/lib(asan|ubsan)\.so~', (string) getenv('LD_PRELOAD'))) die('skip faketime hangs the sanitizer runtime (LD_PRELOAD) in the child');
?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options();
// 1 per 10 s, taken here
$l = new RRateLimiter('clock', 1, 10000, $o);
var_dump($l->tryAcquire());
// another process whose clock is apart: a limiter on its own clock would find a new window
$child = function (string $offset) use ($o): string {
    $code = '$l = new RRateLimiter("clock", 1, 10000, ' . var_export($o, true) . ');'
        . 'echo json_encode(["now" => time(), "took" => $l->tryAcquire(), "retry" => $l->retryAfter(), "remaining" => $l->remaining()]);';
    $cmd = 'FAKETIME_DONT_FAKE_MONOTONIC=1 /usr/bin/faketime -f ' . escapeshellarg($offset) . ' ' . escapeshellarg(PHP_BINARY)
        . ' -n -d extension_dir=' . escapeshellarg(ini_get('extension_dir')) . ' -d extension=rlock -r ' . escapeshellarg($code);
    return shell_exec($cmd) ?? '';
};
$seen = [];
foreach (['+1h', '-1d'] as $offset) {
    $r = json_decode($child($offset), true);
    if (!is_array($r)) {
        die("the child said nothing\n");
    }
    $seen[$offset] = $r;
}
// here, after them: refused, due no later than they were told
var_dump($l->tryAcquire());
$here = $l->retryAfter();
foreach ($seen as $offset => $r) {
    echo "$offset: its clock is ", abs($r['now'] - time()) > 3000 ? 'apart' : 'not apart', ', took ', var_export($r['took'], true),
        ', retry ', $r['retry'] >= $here && $r['retry'] <= 10000 ? 'as the server counts' : "{$r['retry']} (here $here)",
        ', remaining ', $r['remaining'], "\n";
}
?>
--EXPECT--
bool(true)
bool(false)
+1h: its clock is apart, took false, retry as the server counts, remaining 0
-1d: its clock is apart, took false, retry as the server counts, remaining 0
