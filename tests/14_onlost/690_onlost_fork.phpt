--TEST--
onLost(): a forked child is never told of its parent's holds (not its own), and is told of its own; the parent is told of its own
--EXTENSIONS--
rlock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl'); ?>
--FILE--
<?php
require __DIR__ . '/../onlost.inc';
$ttl = 300 * rlock_test_slow();
$o = rlock_test_options(['ttl' => $ttl, 'watchdog' => true]);
$l = (new RLock('parent', $o))->onLost(rlock_test_on_lost('parent'));
var_dump($l->lock());
$pid = pcntl_fork();
if ($pid === 0) {
    // the child takes a lock of its own, and both keys are taken away
    $mine = (new RLock('child', $o))->onLost(rlock_test_on_lost('child'));
    $ok = $mine->lock();
    rlock_test_cmd('DEL', $mine->key(), $l->key());
    $ok = $ok && rlock_test_spin(1);
    usleep(2 * $ttl * 1000);
    exit($ok && $GLOBALS['lost'] === ['child'] ? 0 : 1);
}
pcntl_waitpid($pid, $status);
echo "child: ", rlock_test_exit($status), "\n";
var_dump(rlock_test_spin(1), $GLOBALS['lost']);
?>
--EXPECT--
bool(true)
child: 0
bool(true)
array(1) {
  [0]=>
  string(6) "parent"
}
