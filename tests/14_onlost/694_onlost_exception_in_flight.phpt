--TEST--
onLost(): a lock found lost while the code was throwing (a call that timed out on another server) has its callback run at once, before the catch block; both exceptions surface, the callback's first with the other as its previous
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../onlost.inc';
$slow = rlock_test_slow();
$o = rlock_test_options(['ttl' => 300 * $slow, 'watchdog' => true]);
// a server that accepts and never answers: a lock there times out after read_timeout
$mute = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) explode(':', stream_socket_get_name($mute, false))[1];
$stuck = new RLock('stuck', ['server' => "redis://127.0.0.1:$port", 'read_timeout' => 1500 * $slow, 'persistent' => false]);

$a = (new RLock('a', $o))->onLost(rlock_test_on_lost('a'));
var_dump($a->lock());
rlock_test_cmd('DEL', $a->key());
try {
    $stuck->lock();   // the watchdog finds a lost while this waits for its reply
} catch (RLockConnectionException $e) {
    $GLOBALS['lost'][] = 'caught ' . get_class($e);
}
var_dump($GLOBALS['lost']);

$b = (new RLock('b', $o))->onLost(function () {
    throw new LogicException('b lost');
});
var_dump($b->lock());
rlock_test_cmd('DEL', $b->key());
try {
    $stuck->lock();
} catch (Exception $e) {
    for (; $e; $e = $e->getPrevious()) {
        echo get_class($e), "\n";
    }
}
?>
--EXPECT--
bool(true)
array(2) {
  [0]=>
  string(1) "a"
  [1]=>
  string(31) "caught RLockConnectionException"
}
bool(true)
LogicException
RLockConnectionException
