--TEST--
Request end: a lock taken in a register_shutdown_function() callback and kept (in a static) is released at once
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

// a shutdown function runs before any RSHUTDOWN; this one also starts a session whose
// write() (run after rlock's RSHUTDOWN) takes a second lock
$child = rlock_test_child('register_shutdown_function(function () use ($o) {
    $l = new RLock("shutdown", $o);
    $locked = $l->lock();
    Handler::$keep[] = $l;
    session_at_end(function (Handler $h) use ($o) {
        $l = new RLock("shutdown-session", $o);
        echo $l->lock() ? "locked " . $l->token() . "\n" : "not locked\n";
        Handler::$keep[] = $l;
    });
    echo $locked ? "locked " . $l->token() . "\n" : "not locked\n";
});', $o);
echo "children's locks: ", preg_match_all('/^locked [0-9a-f]{32}$/m', $child['out']), "\n";
echo "how it ended: ", trim($child['err']) === '' ? 'quietly' : $child['err'], "\n";
echo "keys left: "; var_dump(rlock_test_cmd('PTTL', $o['prefix'] . 'shutdown'), rlock_test_cmd('PTTL', $o['prefix'] . 'shutdown-session'));
?>
--EXPECT--
children's locks: 2
how it ended: quietly
keys left: int(-2)
int(-2)
