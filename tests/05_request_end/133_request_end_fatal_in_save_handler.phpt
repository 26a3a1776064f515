--TEST--
Request end: a lock taken in a session save handler's write() that then dies of a fatal error is released at once
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

// the fatal error bails out of write(): its frame, and the RLock in it, are never unwound
// (the session module then warns that it cannot call the handler's close())
$child = rlock_test_child('session_at_end(function (Handler $h) use ($o) {
    $l = new RLock("fatal", $o);
    echo $l->lock() ? "locked " . $l->token() . "\n" : "not locked\n";
    // @: PHP 8.4 deprecates E_USER_ERROR (the fatal error is not silenced)
    @trigger_error("the save handler dies", E_USER_ERROR);
});', $o);
echo "child: ", strlen(rlock_test_locked($child)) === 32 ? 'locked' : rlock_test_locked($child), "\n";
echo "how it ended: ", trim($child['err']), "\n";
echo "key left: "; var_dump(rlock_test_cmd('PTTL', $o['prefix'] . 'fatal'));
?>
--EXPECTF--
child: locked
how it ended: Fatal error: the save handler dies in Command line code on line %d%A
key left: int(-2)
