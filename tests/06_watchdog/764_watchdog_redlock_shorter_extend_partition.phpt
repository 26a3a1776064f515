--TEST--
watchdog with "servers" (Redlock): after extend() to a shorter lease, two masters cut off from the owner (the proxies it reaches them through stopped) but not from another process: the lock's validity is the shorter lease, and the owner's lost() is true by the time the other process can hold the lock (it was the first lease's validity, 30 s)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../watchdog.inc';

/* A TCP proxy to port in a child process of its own (stopped: a partition): [port, pid]. */
function proxy(int $to): array
{
    $server = stream_socket_server('tcp://127.0.0.1:0');
    $port = (int) explode(':', stream_socket_get_name($server, false))[1];
    if (($pid = pcntl_fork()) !== 0) {
        fclose($server);
        return [$port, $pid];
    }
    $peer = [];
    for (;;) {
        $r = array_merge([$server], array_values($peer ? array_map(fn ($p) => $p[0], $peer) : []));
        $w = $e = null;
        if (stream_select($r, $w, $e, null) === false) {
            continue;
        }
        foreach ($r as $s) {
            if ($s === $server) {
                $c = stream_socket_accept($server);
                $u = stream_socket_client("tcp://127.0.0.1:$to");
                $peer[(int) $c] = [$c, $u];
                $peer[(int) $u] = [$u, $c];
                continue;
            }
            $data = fread($s, 65536);
            if ($data === '' || $data === false) {
                [, $other] = $peer[(int) $s];
                unset($peer[(int) $s], $peer[(int) $other]);
                fclose($s);
                fclose($other);
                continue;
            }
            fwrite($peer[(int) $s][1], $data);
        }
    }
}

$s = rlock_test_slow();
$m = [rlock_test_own_server(), rlock_test_own_server(), rlock_test_own_server()];
[$pa, $pida] = proxy($m[0]['port']);
[$pb, $pidb] = proxy($m[1]['port']);
$ttl = 800 * $s;
$owner = new RLock('a', ['servers' => ["redis://127.0.0.1:$pa", "redis://127.0.0.1:$pb", $m[2]['dsn']], 'ttl' => 30000 * $s,
    'read_timeout' => 300 * $s, 'watchdog' => true, 'prefix' => 'f764:']);
var_dump($owner->tryLock(), $owner->extend($ttl));
$key = $owner->key();
$mine = $owner->token();
exec("kill -STOP $pida $pidb");

// another process, which reaches every master, tries all along
$pid = pcntl_fork();
if ($pid === 0) {
    $other = new RLock('a', ['servers' => array_column($m, 'dsn'), 'ttl' => 60000 * $s, 'read_timeout' => 100 * $s,
        'prefix' => 'f764:']);
    for ($deadline = hrtime(true) + 20e9 * $s; hrtime(true) < $deadline;) {
        if ($other->tryLock()) {
            rlock_test_sleep(20000 * $s);  // held till the test ends it
        }
        rlock_test_sleep(5);
    }
    exit(0);
}
$both = $in = 0;
for ($end = hrtime(true) + 4 * $ttl * 1e6; hrtime(true) < $end;) {
    $a = $m[0]['cmd']('GET', $key);
    $b = $m[1]['cmd']('GET', $key);
    $lost = $owner->lost();
    if (is_string($a) && $a !== $mine && $a === $b) {
        $in++;
        $both += !$lost;
    }
    rlock_test_sleep(5);
}
echo "another inside: ", $in > 0 ? 'yes' : 'no', ", while the owner held: $both\n";
var_dump($owner->lost());
exec("kill -KILL $pid $pida $pidb");
pcntl_waitpid($pid, $status);
pcntl_waitpid($pida, $status);
pcntl_waitpid($pidb, $status);
?>
--EXPECT--
bool(true)
bool(true)
another inside: yes, while the owner held: 0
bool(true)
