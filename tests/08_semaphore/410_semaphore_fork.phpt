--TEST--
RSemaphore after fork(): the child holds none of its parent's permits (held() 0, release() false) and takes its own under a token of its own
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options();
$s = new RSemaphore('fork', 3, $o);
var_dump($s->acquire(2));
$pid = pcntl_fork();
if ($pid === 0) {
    $out = [$s->held(), $s->release(), $s->tryAcquire(1), $s->held(), $s->available()];
    echo 'child: ', json_encode($out), "\n";
    exit(0);  // releases the child's own permit
}
pcntl_waitpid($pid, $status);
echo "child exit: ", rlock_test_exit($status), "\n";
var_dump($s->held(), $s->available(), $s->release(), $s->available());
?>
--EXPECT--
bool(true)
child: [0,false,true,1,0]
child exit: 0
int(2)
int(1)
bool(true)
int(3)
