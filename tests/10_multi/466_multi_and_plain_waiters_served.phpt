--TEST--
A plain waiter on one key and a multi waiter on it, in two other processes, are both served when the multi holder unlocks, each holding its keys alone
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
$o = rlock_test_options(['ttl' => 20000]);
$p = $o['prefix'];
$m = RLock::multi(['a', 'b'], $o);
var_dump($m->lock());

[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pids = [];
foreach (['plain', 'multi'] as $kind) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        fclose($mine);
        $l = $kind === 'plain' ? new RLock('a', $o) : RLock::multi(['b', 'a'], $o);
        $got = $l->lock(15000);
        // while it holds: a holds its token (and b too for the multi lock), marked with a
        // "+" while the other child waits for it
        $holds = fn (string $k) => rtrim((string) rlock_test_cmd('GET', $k), '+') === $l->token();
        $alone = $got && $holds("{$p}a") && ($kind === 'plain' || $holds("{$p}b"));
        usleep(20000);
        $alone = $alone && $holds("{$p}a");
        $l->unlock();
        fwrite($theirs, "$kind " . json_encode(['got' => $got, 'alone' => $alone]) . "\n");
        exit(0);
    }
    $pids[] = $pid;
}
fclose($theirs);
$deadline = microtime(true) + 10 * $slow;
while (!preg_match('/^blocked_clients:2/m', rlock_test_cmd('INFO', 'clients'))) {
    if (microtime(true) > $deadline) {
        die("the children never blocked\n");
    }
    usleep(2000);
}
var_dump($m->unlock());
$seen = [];
for ($i = 0; $i < 2; $i++) {
    [$kind, $json] = explode(' ', trim(fgets($mine)), 2);
    $seen[$kind] = json_decode($json, true);
}
ksort($seen);
var_dump($seen);
foreach ($pids as $pid) {
    pcntl_waitpid($pid, $status);
}
var_dump(rlock_test_cmd('EXISTS', "{$p}a", "{$p}b"));
?>
--EXPECT--
bool(true)
bool(true)
array(2) {
  ["multi"]=>
  array(2) {
    ["got"]=>
    bool(true)
    ["alone"]=>
    bool(true)
  }
  ["plain"]=>
  array(2) {
    ["got"]=>
    bool(true)
    ["alone"]=>
    bool(true)
  }
}
int(0)
