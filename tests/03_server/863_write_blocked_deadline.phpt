--TEST--
A command larger than the socket buffers, to a server that never reads it: the write waits for room until the deadline, then RLockConnectionException "write timed out" naming host and port, within read_timeout; asleep meanwhile (the socket is non-blocking: a write that gets EAGAIN polls, it does not try again at once) (a persistent connection and one of the request alike)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
memory_limit=-1
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
// the kernel completes the connect; nobody ever reads: a SET of 16 MiB (more where the
// kernel lets a socket buffer more: tcp_wmem's maximum, 4 MiB by default, twice over) fills
// the loopback's buffers and the rest of it never leaves
$mute = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) explode(':', stream_socket_get_name($mute, false))[1];
$cpu = function (): float {
    $r = getrusage();
    return ($r['ru_utime.tv_sec'] + $r['ru_stime.tv_sec']) * 1e3 + ($r['ru_utime.tv_usec'] + $r['ru_stime.tv_usec']) / 1e3;
};
$wmem = (int) (preg_split('/\s+/', trim((string) @file_get_contents('/proc/sys/net/ipv4/tcp_wmem')))[2] ?? 0);
$key = str_repeat('k', max(16 << 20, 2 * $wmem + (8 << 20)));
foreach ([true, false] as $persistent) {
    $l = new RLock($key, ['server' => "redis://127.0.0.1:$port", 'read_timeout' => 1000, 'persistent' => $persistent]);
    $t = microtime(true);
    $c = $cpu();
    try {
        $l->tryLock();
        echo "no exception\n";
    } catch (RLockConnectionException $e) {
        $ms = (microtime(true) - $t) * 1000;
        $used = $cpu() - $c;
        echo get_class($e), ': ', str_replace((string) $port, 'PORT', $e->getMessage()), "\n";
        echo "after read_timeout: ", var_export($ms >= 950, true), ", bounded: ", var_export($ms < 1000 + 1500 * $slow, true), "\n";
        // a write that tried again at once would spend the whole second on the CPU; the SET
        // itself (16 MiB copied a few times) takes a small part of it. (A bound on CPU time
        // means nothing under valgrind or the sanitizers: there it is not looked at.)
        echo "asleep while it waited: ", var_export($slow > 1 || $used < 500, true), $slow > 1 || $used < 500 ? '' : " ($used ms)", "\n";
    }
}
$good = new RLock('k', rlock_test_options());
var_dump($good->tryLock(), $good->unlock());
?>
--EXPECT--
RLockConnectionException: Redis 127.0.0.1:PORT: write timed out
after read_timeout: true, bounded: true
asleep while it waited: true
RLockConnectionException: Redis 127.0.0.1:PORT: write timed out
after read_timeout: true, bounded: true
asleep while it waited: true
bool(true)
bool(true)
