--TEST--
Fibers: a Fiber's lock() on a key another Fiber of its process holds really waits, queued as another process' waiter, and is woken by the release of that hold, taking the key with a token of its own; RLock::release($key, $token) releases a hold from any context
--DESCRIPTION--
Nothing else of a process runs while one of its Fibers blocks in lock(): the holder's release comes
here from another process, by the holder's token, as a job handed the token releases it.
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$o = rlock_test_options(['ttl' => 30000]);
$key = (new RLock('k', $o))->key();

[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = pcntl_fork();
if ($pid === 0) {
    // the releaser: a connection of its own, none of the parent's
    fclose($mine);
    $token = trim(fgets($theirs));
    $s = stream_socket_client('tcp://' . RLOCK_TEST_HOST . ':' . RLOCK_TEST_PORT);
    $ask = function (string ...$args) use ($s) {
        $out = '*' . count($args) . "\r\n";
        foreach ($args as $a) {
            $out .= '$' . strlen($a) . "\r\n$a\r\n";
        }
        fwrite($s, $out);
        return rlock_test_read($s);
    };
    // wait (with a deadline) until the Fiber is queued and blocked
    $deadline = microtime(true) + 10 * $slow;
    while ($ask('GET', rlock_test_companion($key, 'waiters')) !== '1'
            || !str_contains($ask('INFO', 'clients'), "blocked_clients:1")) {
        if (microtime(true) > $deadline) {
            fwrite($theirs, json_encode(['queued' => false]) . "\n");
            exit(1);
        }
        usleep(5000);
    }
    $at = microtime(true);
    $released = RLock::release('k', $token, $o);
    fwrite($theirs, json_encode(['queued' => true, 'released' => $released, 'at' => $at]) . "\n");
    exit(0);
}
fclose($theirs);

$a = new Fiber(function () use ($o) {
    $l = new RLock('k', $o);
    Fiber::suspend($l->lock() ? $l->token() : null);
    echo "A unlock after the release: ", var_export($l->unlock(), true), ", lost: ", var_export($l->lost(), true), "\n";
});
$tokenA = $a->start();
fwrite($mine, "$tokenA\n");
$b = new Fiber(function () use ($o, $slow) {
    $l = new RLock('k', $o);
    $got = $l->lock(15000 * $slow);
    return ['got' => $got, 'at' => microtime(true), 'token' => $l->token()];
});
$b->start();
$rb = $b->getReturn();
$child = json_decode(fgets($mine), true);
pcntl_waitpid($pid, $status);
echo "the releaser saw B queued: ", var_export($child['queued'], true), ", released A's hold: ", var_export($child['released'], true), "\n";
echo "B got it: ", var_export($rb['got'], true), "\n";
echo "woken by the release, not by its deadline: ", var_export(($rb['at'] - $child['at']) * 1000 < 1000 * $slow, true), "\n";
echo "B's own token: ", var_export($rb['token'] !== $tokenA, true), "\n";
$a->resume();
var_dump(pcntl_wexitstatus($status));

// the token is the proof, whatever context gives it
$main = new RLock('z', $o);
$main->lock();
$f = new Fiber(fn (string $t) => RLock::release('z', $t, $o));
$f->start($main->token());
echo "a Fiber releases the main flow's hold by its token: ", var_export($f->getReturn(), true), "\n";
echo "main flow's unlock: ", var_export($main->unlock(), true), ", key: ", var_export(rlock_test_cmd('EXISTS', $main->key()), true), "\n";
?>
--EXPECT--
the releaser saw B queued: true, released A's hold: true
B got it: true
woken by the release, not by its deadline: true
B's own token: true
A unlock after the release: false, lost: true
int(0)
a Fiber releases the main flow's hold by its token: true
main flow's unlock: false, key: 0
