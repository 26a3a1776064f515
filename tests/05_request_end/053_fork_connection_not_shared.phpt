--TEST--
After pcntl_fork() parent and child never share a socket: both use rlock at once and every reply is their own
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['reentrant' => false]);

// both processes check each acquisition through rlock itself: a crossed reply shows up
// as a wrong token, a wrong answer or a protocol error
function hammer(array $o, string $who, int $n): int {
    $bad = 0;
    for ($i = 0; $i < $n; $i++) {
        $l = new RLock("$who:$i", $o);
        try {
            if (!$l->tryLock() || !$l->isAcquired() || $l->ttl() <= 0 || !$l->extend(5000) || !$l->unlock() || $l->isLocked()) {
                $bad++;
            }
        } catch (RLockException $e) {
            $bad++;
        }
    }
    return $bad;
}

$warm = new RLock('warm', $o);
var_dump($warm->tryLock());   // the parent's pooled connection exists before the fork

[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = pcntl_fork();
if ($pid === 0) {
    fclose($mine);
    fwrite($theirs, hammer($o, 'child', 300) . "\n");
    exit(0);
}
fclose($theirs);
echo "parent errors: ", hammer($o, 'parent', 300), "\n";
echo "child errors: ", trim(fgets($mine)), "\n";
pcntl_waitpid($pid, $status);
echo "child exit status: ", rlock_test_exit($status), "\n";
// the parent's connection is still in step after the child closed its copy
var_dump($warm->isAcquired(), $warm->unlock());
?>
--EXPECT--
bool(true)
parent errors: 0
child errors: 0
child exit status: 0
bool(true)
bool(true)
