--TEST--
Request end: with persistent => false, a lock taken in a session save handler's write() is released at once, over the request's own connection
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
$o = rlock_test_options(['ttl' => 20000, 'persistent' => false]);

$child = rlock_test_child('session_at_end(function (Handler $h) use ($o) {
    $h->held = new RLock("not-persistent", $o);
    echo $h->held->lock() ? "locked " . $h->held->token() . "\n" : "not locked\n";
});', $o);
echo "child: ", strlen(rlock_test_locked($child)) === 32 ? 'locked' : rlock_test_locked($child), "\n";
echo "how it ended: ", trim($child['err']) === '' ? 'quietly' : $child['err'], "\n";
echo "key left: "; var_dump(rlock_test_cmd('PTTL', $o['prefix'] . 'not-persistent'));
?>
--EXPECT--
child: locked
how it ended: quietly
key left: int(-2)
