--TEST--
Request end: with auto_release => false, a lock taken in a session save handler's write() stays, to its ttl (the user's choice)
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
$o = rlock_test_options(['ttl' => 20000, 'auto_release' => false]);

$child = rlock_test_child('session_at_end(function (Handler $h) use ($o) {
    $h->held = new RLock("kept", $o);
    echo $h->held->lock() ? "locked " . $h->held->token() . "\n" : "not locked\n";
});', $o);
$token = rlock_test_locked($child);
echo "child: ", strlen($token) === 32 ? 'locked' : $token, "\n";
echo "how it ended: ", trim($child['err']) === '' ? 'quietly' : $child['err'], "\n";
echo "kept, with its token: "; var_dump(rlock_test_cmd('GET', $o['prefix'] . 'kept') === $token);
$pttl = rlock_test_cmd('PTTL', $o['prefix'] . 'kept');
echo "with its ttl: "; var_dump($pttl > 0 && $pttl <= 20000);
var_dump(RLock::release('kept', $token, $o));
?>
--EXPECT--
child: locked
how it ended: quietly
kept, with its token: bool(true)
with its ttl: bool(true)
bool(true)
