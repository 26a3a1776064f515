--TEST--
Request end: in a process that serves many requests (php -S), the watchdog renews nothing past the request that took a lock in a session save handler's write()
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
$o = rlock_test_options(['ttl' => 1000, 'watchdog' => true]);

// one php -S process serves both requests: "take" takes two watchdog locks in write(), one
// released at request end, one kept (auto_release off); "look" reports what is renewed now
$dir = sys_get_temp_dir() . '/rlock-phpt-132-' . getmypid();
@mkdir($dir);
file_put_contents("$dir/index.php", "<?php\n" . RLOCK_TEST_SAVE_HANDLER . '$o = ' . var_export($o, true) . ';
if ($_GET["step"] === "take") {
    session_at_end(function (Handler $h) use ($o) {
        $h->held = [new RLock("released", $o), new RLock("kept", ["auto_release" => false] + $o)];
        foreach ($h->held as $l) {
            echo $l->lock() ? "locked " . $l->token() . "\n" : "not locked\n";
        }
    });
} else {
    ob_start();
    phpinfo(INFO_MODULES);
    /* phpinfo() in HTML: the row is <td class="e">Watchdog locks renewed now </td><td class="v">N </td> */
    $info = strip_tags(str_replace("</td>", " => ", ob_get_clean()));
    echo preg_match("/Watchdog locks renewed now\\s*=>\\s*(\\d+)/", $info, $m) ? "renewed now: $m[1]\n" : "no row\n";
}
echo "pid ", getmypid(), "\n";');
$s = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) explode(':', stream_socket_get_name($s, false))[1];
fclose($s);
$server = proc_open([PHP_BINARY, '-n', '-d', 'extension_dir=' . ini_get('extension_dir'), '-d', 'extension=rlock',
    '-d', 'display_errors=stderr', '-d', 'log_errors=0', '-S', "127.0.0.1:$port", '-t', $dir],
    [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', "$dir/stderr", 'w']], $pipes);
register_shutdown_function(function () use ($server, $dir) {
    proc_terminate($server);
    proc_close($server);
    array_map('unlink', glob("$dir/*") ?: []);
    rmdir($dir);
});
for ($deadline = microtime(true) + 10; !($c = @stream_socket_client("tcp://127.0.0.1:$port")) && microtime(true) < $deadline;) {
    usleep(10000);
}
// the server closes the connection after the request's shutdown: the response's end is its end
$take = file_get_contents("http://127.0.0.1:$port/?step=take");
preg_match_all('/^locked ([0-9a-f]{32})$/m', $take, $m);
echo "locks taken: ", count($m[1]), "\n";
echo "released at once: "; var_dump(rlock_test_cmd('EXISTS', $o['prefix'] . 'released'));
echo "kept: "; var_dump(rlock_test_cmd('GET', $o['prefix'] . 'kept') === ($m[1][1] ?? null));

$look = file_get_contents("http://127.0.0.1:$port/?step=look");
echo "same process: "; var_dump(preg_match('/^pid (\d+)$/m', $take, $a) && preg_match('/^pid (\d+)$/m', $look, $b) && $a[1] === $b[1]);
echo preg_match('/^renewed now: .*$/m', $look, $r) ? $r[0] : "no report: $look", "\n";
// not renewed: the kept lock runs out with its ttl of 1 s (awaited up to 10 s)
for ($deadline = microtime(true) + 10; rlock_test_cmd('EXISTS', $o['prefix'] . 'kept') && microtime(true) < $deadline;) {
    usleep(20000);
}
echo "kept lock expired: "; var_dump(rlock_test_cmd('EXISTS', $o['prefix'] . 'kept'));
// the server logs each request on stderr; PHP's errors would go there too
$errors = preg_grep('/Warning|Error|Notice|Deprecated/i', file("$dir/stderr", FILE_IGNORE_NEW_LINES));
echo "server errors: ", $errors ? implode("\n", $errors) : 'none', "\n";
?>
--EXPECT--
locks taken: 2
released at once: int(0)
kept: bool(true)
same process: bool(true)
renewed now: 0
kept lock expired: int(0)
server errors: none
