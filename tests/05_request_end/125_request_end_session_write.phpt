--TEST--
Request end: a lock taken in a session save handler's write() (run by the session module's RSHUTDOWN, after rlock's) is released at once
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

// session_set_save_handler($handler, false): write() runs in the session module's RSHUTDOWN;
// the handler keeps the lock, and is freed there too, once the session module lets it go
$child = rlock_test_child('session_at_end(function (Handler $h) use ($o) {
    $h->held = new RLock("session", $o);
    echo $h->held->lock() ? "locked " . $h->held->token() . "\n" : "not locked\n";
});', $o);
// no wait: the key must be gone the moment the process is (not in 20 s)
echo "child: ", strlen(rlock_test_locked($child)) === 32 ? 'locked' : rlock_test_locked($child), "\n";
echo "how it ended: ", trim($child['err']) === '' ? 'quietly' : $child['err'], "\n";
echo "key left: "; var_dump(rlock_test_cmd('PTTL', $o['prefix'] . 'session'));
?>
--EXPECT--
child: locked
how it ended: quietly
key left: int(-2)
