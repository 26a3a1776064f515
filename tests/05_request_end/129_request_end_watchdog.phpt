--TEST--
Request end: a watchdog lock taken in a session save handler's write() is renewed while held and released at once at the end
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
$o = rlock_test_options(['ttl' => 20000, 'watchdog' => true]);

// write() reports whether the watchdog renews the lock it took there
$child = rlock_test_child('session_at_end(function (Handler $h) use ($o) {
    $h->held = new RLock("watchdog", $o);
    echo $h->held->lock() ? "locked " . $h->held->token() . "\n" : "not locked\n";
    ob_start();
    phpinfo(INFO_MODULES);
    echo preg_match("/^Watchdog locks renewed now => (\d+)$/m", ob_get_clean(), $m) ? "renewed now: $m[1]\n" : "no row\n";
});', $o);
echo "child: ", strlen(rlock_test_locked($child)) === 32 ? 'locked' : rlock_test_locked($child), "\n";
echo preg_match('/^renewed now: .*$/m', $child['out'], $m) ? $m[0] : 'no report', "\n";
echo "how it ended: ", trim($child['err']) === '' ? 'quietly' : $child['err'], "\n";
echo "key left: "; var_dump(rlock_test_cmd('PTTL', $o['prefix'] . 'watchdog'));
?>
--EXPECT--
child: locked
renewed now: 1
how it ended: quietly
key left: int(-2)
