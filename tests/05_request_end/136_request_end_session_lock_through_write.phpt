--TEST--
Request end: a session-locking save handler (lock in read(), unlock() in close()) still holds its lock while write() runs in the session module's RSHUTDOWN
--EXTENSIONS--
rlock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
if (!is_file(ini_get('extension_dir') . '/rlock.so')) die('skip rlock.so not in extension_dir');
?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../child.inc';
$o = rlock_test_options(['ttl' => 20000]);

// the way session handlers lock a session against concurrent requests: read() takes the
// lock (at session_start()), close() gives it back after write() saved the data; both of
// these run after rlock's RSHUTDOWN, with the lock taken long before
$child = rlock_test_child('session_at_end(function (Handler $h) {
    echo "write: the lock is ours: ", var_export($h->held->isAcquired(), true), "\n";
}, [
    "read" => function (Handler $h) use ($o) {
        $h->held = new RLock("session", $o);
        $h->held->lock(1000);
    },
    "close" => function (Handler $h) {
        echo "close: unlock: ", var_export($h->held->unlock(), true), "\n";
    },
]);
echo "script: done\n";', $o);
echo $child['out'];
echo "how it ended: ", trim($child['err']) === '' ? 'quietly' : $child['err'], "\n";
echo "key left: "; var_dump(rlock_test_cmd('PTTL', $o['prefix'] . 'session'));
?>
--EXPECT--
script: done
write: the lock is ours: true
close: unlock: true
how it ended: quietly
key left: int(-2)
