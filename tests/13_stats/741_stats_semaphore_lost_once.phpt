--TEST--
Statistics count a semaphore's loss once when the watchdog finds the permits gone while a re-acquire's reply is on its way
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--INI--
rlock.stats_keys=16
--FILE--
<?php
require __DIR__ . '/../config.inc';
// (scaled under valgrind: a 300 ms lease ran out there by itself, a second loss; the
// re-acquire held until the watchdog's next renewal waits up to a period, ttl / 3)
$s = rlock_test_slow();
$o = rlock_test_options(['ttl' => 300 * $s, 'watchdog' => true, 'read_timeout' => 1000 * $s]);
$holders = rlock_test_companion($o['prefix'] . 'pool', 'semaphore');
$arm = sys_get_temp_dir() . '/rlock-741-' . getmypid();
/* A relay to the test server. Once $arm exists, it holds the request's next command (the
 * re-acquire), deletes the holders' key, relays the watchdog's next renewal (sent after the
 * delete: it finds the permits gone) and its reply, and only then the held command, once the
 * watchdog sent its renewal after that: it took in the reply (counted the loss) by then. A
 * lock the request holds keeps the watchdog renewing. (The other order, the re-acquire's reply
 * before the watchdog took in its own, is not this test's: the relay let it happen on a
 * loaded machine, where the watchdog found the new permits lost too.) */
$server = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) explode(':', stream_socket_get_name($server, false))[1];
$pid = pcntl_fork();
if ($pid === 0) {
    fclose(STDOUT);
    fclose(STDERR);
    $pairs = [];  // [client, upstream]; the first is the request's, the next the watchdog's
    $held = null;
    $renewing = $replied = false;
    for (;;) {
        $read = [$server];
        foreach ($pairs as [$c, $u]) {
            $read[] = $c;
            $read[] = $u;
        }
        $w = $e = null;
        if (@stream_select($read, $w, $e, null) === false) {
            continue;
        }
        foreach ($read as $s) {
            if ($s === $server) {
                $c = stream_socket_accept($server, 0);
                $pairs[] = [$c, stream_socket_client('tcp://' . RLOCK_TEST_HOST . ':' . RLOCK_TEST_PORT)];
                continue;
            }
            foreach ($pairs as $i => [$c, $u]) {
                if ($s !== $c && $s !== $u) {
                    continue;
                }
                $data = fread($s, 65536);
                if ($data === '' || $data === false) {
                    exit(0);
                }
                if ($i === 0 && $s === $c && $held === null && file_exists($arm)) {
                    $held = $data;
                    $r = stream_socket_client('tcp://' . RLOCK_TEST_HOST . ':' . RLOCK_TEST_PORT);
                    fwrite($r, "*2\r\n\$3\r\nDEL\r\n\$" . strlen($holders) . "\r\n$holders\r\n");
                    fgets($r);
                    fclose($r);
                    break;
                }
                if ($i === 1 && $s === $c && $held !== null) {
                    if ($replied && $held !== '') {
                        // the watchdog's next renewal: the request's command goes on
                        fwrite($pairs[0][1], $held);
                        $held = '';
                    }
                    $renewing = true;
                }
                fwrite($s === $c ? $u : $c, $data);
                if ($i === 1 && $s === $u && $renewing) {
                    $replied = true;
                }
                break;
            }
        }
    }
}
$s = new RSemaphore('pool', 3, ['server' => "redis://127.0.0.1:$port"] + $o);
var_dump($s->acquire(1));
$keep = new RLock('keep', ['server' => "redis://127.0.0.1:$port"] + $o);
$keep->lock();
touch($arm);
var_dump($s->acquire(1), $s->held());
unlink($arm);
$k = current(array_filter(rlock_status()['keys'], fn ($k) => $k['kind'] === 'semaphore'));
echo "{$k['kind']} lost: {$k['lost']}, acquires: {$k['acquires']}\n";
var_dump($s->release());
$keep->unlock();
exec("kill -KILL $pid");
pcntl_waitpid($pid, $status);
?>
--EXPECT--
bool(true)
bool(true)
int(1)
semaphore lost: 1, acquires: 2
bool(true)
