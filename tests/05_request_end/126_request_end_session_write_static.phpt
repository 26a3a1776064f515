--TEST--
Request end: a lock taken in a session save handler's write() and kept in a static, freed only by the engine's shutdown, is released at once
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

// the RLock outlives every RSHUTDOWN: the engine frees it in zend_deactivate; it is taken
// twice (reentrant), so two holds are given back there
$child = rlock_test_child('session_at_end(function (Handler $h) use ($o) {
    $l = new RLock("static", $o);
    $l->lock();
    echo $l->lock() ? "locked " . $l->token() . "\n" : "not locked\n";
    Handler::$keep[] = $l;
});', $o);
echo "child: ", strlen(rlock_test_locked($child)) === 32 ? 'locked' : rlock_test_locked($child), "\n";
echo "how it ended: ", trim($child['err']) === '' ? 'quietly' : $child['err'], "\n";
echo "key left: "; var_dump(rlock_test_cmd('PTTL', $o['prefix'] . 'static'));
?>
--EXPECT--
child: locked
how it ended: quietly
key left: int(-2)
