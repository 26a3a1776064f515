--TEST--
A waiter marks the key (its holder's token and a "+") so that a release nobody waited for reads the key alone; the marked holder still extends, restores and is handed over from, and the last waiter gone leaves the key bare again
--EXTENSIONS--
rlock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available');
?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['ttl' => 20000]);
$a = new RLock('marked', $o);
var_dump($a->lock());
echo "bare: ", var_export(rlock_test_cmd('GET', $a->key()) === $a->token(), true), "\n";

function blocked(int $n): void
{
    $deadline = microtime(true) + 10 * rlock_test_slow();
    while (!preg_match("/^blocked_clients:$n\r?$/m", rlock_test_cmd('INFO', 'clients'))) {
        if (microtime(true) > $deadline) {
            die("the waiter never blocked\n");
        }
        usleep(2000);
    }
}

[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = pcntl_fork();
if ($pid === 0) {
    fclose($mine);
    $b = new RLock('marked', $o);
    $got = $b->lock(15000);
    $bare = rlock_test_cmd('GET', $b->key()) === $b->token();
    fwrite($theirs, json_encode(['got' => $got, 'bare' => $bare]) . "\n");
    fgets($theirs);
    $b->unlock();
    exit(0);
}
fclose($theirs);
blocked(1);
echo "marked: ", var_export(rlock_test_cmd('GET', $a->key()) === $a->token() . '+', true), "\n";
var_dump($a->isAcquired(), $a->extend(20000));
$same = new RLock('marked', $o);
var_dump($same->restore($a->token()));
var_dump($a->unlock());
echo "the waiter: ", trim(fgets($mine)), "\n";
fwrite($mine, "go\n");
pcntl_waitpid($pid, $status);

// a waiter that gives up: the key is bare again once it is gone
var_dump($a->lock());
$pid = pcntl_fork();
if ($pid === 0) {
    $c = new RLock('marked', $o);
    exit($c->lock(300) ? 1 : 0);
}
pcntl_waitpid($pid, $status);
echo "the waiter gave up: ", var_export(pcntl_wexitstatus($status) === 0, true), "\n";
echo "bare again: ", var_export(rlock_test_cmd('GET', $a->key()) === $a->token(), true), "\n";
var_dump($a->unlock(), rlock_test_cmd('EXISTS', $a->key()));
?>
--EXPECT--
bool(true)
bare: true
marked: true
bool(true)
bool(true)
bool(true)
bool(true)
the waiter: {"got":true,"bare":true}
bool(true)
the waiter gave up: true
bare again: true
bool(true)
int(0)
