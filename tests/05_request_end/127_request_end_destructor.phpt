--TEST--
Request end: a lock taken by a destructor that runs after rlock's RSHUTDOWN (an object the session module frees) is released at once
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

// the handler holds a Flusher; the session module drops the handler in its RSHUTDOWN, so
// Flusher::__destruct() runs there, and takes a lock it keeps (in a static)
$child = rlock_test_child('final class Flusher
{
    public static array $keep = [];
    public function __construct(private array $o) {}
    public function __destruct()
    {
        $l = new RLock("destructor", $this->o);
        echo $l->lock() ? "locked " . $l->token() . "\n" : "not locked\n";
        self::$keep[] = $l;
    }
}
session_at_end(function (Handler $h) use ($o) {
    $h->held = new Flusher($o);
});', $o);
echo "child: ", strlen(rlock_test_locked($child)) === 32 ? 'locked' : rlock_test_locked($child), "\n";
echo "how it ended: ", trim($child['err']) === '' ? 'quietly' : $child['err'], "\n";
echo "key left: "; var_dump(rlock_test_cmd('PTTL', $o['prefix'] . 'destructor'));
?>
--EXPECT--
child: locked
how it ended: quietly
key left: int(-2)
