<?php
/*
 * The request's last moments under php-fpm: a worker (pm = static, one child) serves a
 * request whose session save handler takes locks in write(), which the session module
 * calls in its RSHUTDOWN, after rlock's. The locks must be released by the time the
 * response ends (FCGI_END_REQUEST), and the watchdog must renew nothing in the worker's
 * next request. And a persistent rediss:// (TLS) connection serves every request of the
 * worker. And invalid rlock.* settings, from php.ini or the pool, throw in every request that
 * would use them, with one warning at startup. php-fpm is spoken to directly, over FastCGI:
 * no web server in between.
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit tests/phpunit/RequestEndFpmTest.php
 */

declare(strict_types=1);

require_once __DIR__ . '/../child.inc';

final class RequestEndFpmTest extends OneServerTestCase
{
    /** the php-fpm of the PHP running the tests */
    private const FPM = '/usr/sbin/php-fpm' . PHP_MAJOR_VERSION . '.' . PHP_MINOR_VERSION;

    private string $dir;
    private int $port;
    /** @var resource|null */
    private $fpm = null;

    protected function setUp(): void
    {
        if (!is_executable(self::FPM)) {
            $this->markTestSkipped(self::FPM . ' is not installed (php' . PHP_MAJOR_VERSION . '.' . PHP_MINOR_VERSION . '-fpm)');
        }
        parent::setUp();
        $this->dir = sys_get_temp_dir() . '/rlock-fpm-' . getmypid() . '-' . bin2hex(random_bytes(3));
        mkdir($this->dir);
        // a copy: a rebuild rewriting modules/rlock.so in place must not change a running worker
        copy(getenv('RLOCK_EXT') ?: dirname(__DIR__, 2) . '/modules/rlock.so', "$this->dir/rlock.so");
        $this->startFpm();
    }

    /** php-fpm with one static worker: -d settings $d for the master, $pool lines for the pool. */
    private function startFpm(array $d = [], array $pool = []): void
    {
        $this->port = RedisServer::freePort();
        file_put_contents("$this->dir/php-fpm.conf", implode("\n", [
            '[global]',
            "error_log = $this->dir/php-fpm.log",
            'daemonize = no',
            '[www]',
            "listen = 127.0.0.1:$this->port",
            'pm = static',
            'pm.max_children = 1',
            'catch_workers_output = yes',
            'php_admin_flag[display_errors] = on',
            ...$pool,
        ]) . "\n");
        $cmd = [self::FPM, '-n', '-d', "extension=$this->dir/rlock.so"];
        foreach ($d as $setting) {
            array_push($cmd, '-d', $setting);
        }
        array_push($cmd, '-y', "$this->dir/php-fpm.conf", '-p', $this->dir);
        if (posix_getuid() === 0) {
            $cmd[] = '-R';
        }
        $this->fpm = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', "$this->dir/php-fpm.out", 'w'],
            2 => ['file', "$this->dir/php-fpm.out", 'a']], $pipes);
        $this->await(fn () => @stream_socket_client("tcp://127.0.0.1:$this->port") !== false, 'php-fpm listens');
    }

    private function stopFpm(): void
    {
        if ($this->fpm) {
            proc_terminate($this->fpm);
            proc_close($this->fpm);
            $this->fpm = null;
        }
    }

    protected function tearDown(): void
    {
        $this->stopFpm();
        array_map('unlink', glob("$this->dir/*") ?: []);
        @rmdir($this->dir);
        parent::tearDown();
    }

    /** A FastCGI name-value pair: lengths of one byte below 128, else four. */
    private static function pair(string $name, string $value): string
    {
        $len = fn (string $s): string => strlen($s) < 128 ? chr(strlen($s)) : pack('N', strlen($s) | 0x80000000);
        return $len($name) . $len($value) . $name . $value;
    }

    /** One record: version 1, request id 1, no padding. */
    private static function record(int $type, string $body): string
    {
        return pack('CCnnCx', 1, $type, 1, strlen($body), 0) . $body;
    }

    /** GET $script?$query from php-fpm; returns the body once FCGI_END_REQUEST arrived. */
    private function get(string $script, string $query): string
    {
        $s = stream_socket_client("tcp://127.0.0.1:$this->port", $errno, $errstr, 5);
        $this->assertNotFalse($s, "php-fpm: $errstr");
        stream_set_timeout($s, 10);
        $params = '';
        foreach (['SCRIPT_FILENAME' => $script, 'SCRIPT_NAME' => '/' . basename($script),
            'REQUEST_METHOD' => 'GET', 'QUERY_STRING' => $query, 'SERVER_PROTOCOL' => 'HTTP/1.1',
            'GATEWAY_INTERFACE' => 'CGI/1.1', 'REMOTE_ADDR' => '127.0.0.1'] as $name => $value) {
            $params .= self::pair($name, $value);
        }
        // BEGIN_REQUEST (role responder, close the connection after), PARAMS, STDIN
        fwrite($s, self::record(1, pack('nCx5', 1, 0)) . self::record(4, $params) . self::record(4, '')
            . self::record(5, ''));
        $stdout = '';
        $read = function (int $n) use ($s): string {
            $data = '';
            while (strlen($data) < $n && !feof($s) && ($chunk = fread($s, $n - strlen($data))) !== false) {
                $data .= $chunk;
            }
            $this->assertSame($n, strlen($data), 'php-fpm closed the connection mid-record');
            return $data;
        };
        while (true) {
            $h = unpack('Cversion/Ctype/nid/nlength/Cpadding', $read(8));
            $body = $read($h['length'] + $h['padding']);
            if ($h['type'] === 6) {
                $stdout .= substr($body, 0, $h['length']);
            } elseif ($h['type'] === 3) {
                fclose($s);
                return substr($stdout, strpos($stdout, "\r\n\r\n") + 4);  // the body, past the headers
            }
        }
    }

    public function testSessionWriteLocksEndWithTheResponseAndAreNotRenewedAfter(): void
    {
        $o = ['server' => $this->redis->dsn(), 'prefix' => 'fpm:', 'ttl' => 1000, 'watchdog' => true];
        $script = "$this->dir/index.php";
        file_put_contents($script, "<?php\n" . RLOCK_TEST_SAVE_HANDLER . '$o = ' . var_export($o, true) . ';
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
    $info = strip_tags(str_replace("</td>", " => ", ob_get_clean()));
    echo preg_match("/Watchdog locks renewed now\\\\s*=>\\\\s*(\\\\d+)/", $info, $m) ? "renewed now: $m[1]\n" : "no row\n";
}
echo "pid ", getmypid(), "\n";');

        $take = $this->get($script, 'step=take');
        // the response has ended: the lock write() took is gone, the kept one is there
        $released = $this->client->exists('fpm:released');
        $kept = $this->client->get('fpm:kept');
        $this->assertSame(2, preg_match_all('/^locked [0-9a-f]{32}$/m', $take), "write() took both locks:\n$take");
        $this->assertSame(0, $released, 'released by the time the response ended');
        $this->assertIsString($kept, 'kept with auto_release off');

        $look = $this->get($script, 'step=look');
        $this->assertMatchesRegularExpression('/^pid \d+$/m', $take);
        preg_match('/^pid (\d+)$/m', $take, $a);
        $this->assertStringContainsString("pid $a[1]\n", $look, 'the same worker served both requests');
        $this->assertStringContainsString("renewed now: 0\n", $look, 'the watchdog renews nothing past the request');
        // not renewed: it runs out with its ttl of 1 s
        $this->await(fn () => $this->client->exists('fpm:kept') === 0, 'the kept lock expires');
    }

    /**
     * A persistent TLS connection outlives the request: the worker's requests share one. A
     * build without TLS refuses the rediss:// DSN in every request and opens nothing.
     */
    public function testPersistentTlsConnectionServesEveryRequestOfTheWorker(): void
    {
        require_once __DIR__ . '/../tls/tls.inc';
        ob_start();
        phpinfo(INFO_MODULES);
        $built = str_contains(ob_get_clean(), 'TLS (rediss://) => yes');
        $r = rlock_tls_server();
        $connections = fn (): int => (int) preg_replace('/.*total_connections_received:(\d+).*/s', '$1', ($r['cmd'])('INFO', 'stats'));
        $script = "$this->dir/tls.php";
        file_put_contents($script, '<?php
try {
    $l = new RLock("fpm-tls", ["server" => $_GET["dsn"], "tls_ca" => $_GET["ca"]]);
    echo $l->lock() && $l->unlock() ? "locked" : "not locked";
} catch (RLockException $e) {
    echo get_class($e);
}
echo " pid ", getmypid(), "\n";');
        $before = $connections();
        $bodies = [];
        for ($i = 0; $i < 3; $i++) {
            $bodies[] = $this->get($script, http_build_query(['dsn' => $r['tls_dsn'], 'ca' => $r['ca']]));
        }
        $this->assertCount(1, array_unique($bodies), 'one worker, one outcome: ' . implode('', $bodies));
        $this->assertMatchesRegularExpression($built ? '/^locked pid \d+$/' : '/^RLockException pid \d+$/', $bodies[0]);
        $this->assertSame($built ? 1 : 0, $connections() - $before, 'connections the TLS server received');
    }

    /**
     * Invalid settings, from php.ini (-d, read by the master at startup) and from the pool
     * (php_admin_value, php_value, applied in the worker): never the default in their place.
     * Every request's lock that would use one throws a ValueError naming it; options that
     * give them all work; the worker lives on; one warning per setting at startup, none per
     * request.
     */
    public function testInvalidSettingsThrowInEveryRequestWithOneWarningAtStartup(): void
    {
        $this->stopFpm();
        $this->startFpm(['log_errors=1', 'rlock.server=admin:Sup3rSecret@127.0.0.1:16383', 'rlock.ttl=5'],
            ['php_admin_value[rlock.read_timeout] = 5', 'php_value[rlock.fencing] = flase']);
        $script = "$this->dir/invalid.php";
        file_put_contents($script, '<?php
$given = ["ttl" => 5000, "read_timeout" => 1000, "fencing" => true, "server" => $_GET["dsn"]];
for ($n = 0; $n <= count($given); $n++) {
    try {
        $l = new RLock("fpm-invalid", array_slice($given, 0, $n));
        echo $l->lock() && $l->unlock() ? "locked" : "not locked";
    } catch (ValueError $e) {
        echo $e->getMessage();
    }
    echo "\n";
}
echo "pid ", getmypid(), "\n";');
        $bodies = [];
        for ($i = 0; $i < 3; $i++) {
            $bodies[] = $this->get($script, http_build_query(['dsn' => $this->redis->dsn()]));
        }
        $this->assertCount(1, array_unique($bodies), 'every request alike, one worker: ' . implode('', $bodies));
        $this->assertSame([
            'php.ini setting rlock.ttl="5" is in milliseconds and must be at least 100: 5 would be 5 ms (5 seconds is 5000)',
            'php.ini setting rlock.read_timeout="5" is in milliseconds and must be at least 100: 5 would be 5 ms (5 seconds is 5000)',
            'php.ini setting rlock.fencing="flase" must be a bool: On, Off, 1, 0, yes, no, true or false',
            'php.ini setting rlock.server="admin:***@127.0.0.1:16383" must be redis://[user:pass@]host[:port][/db], '
                . 'rediss://... (TLS), tcp://host:port or unix:///path',
            'locked',
        ], array_slice(explode("\n", $bodies[0]), 0, 5));
        $this->stopFpm();
        $log = file_get_contents("$this->dir/php-fpm.out") . file_get_contents("$this->dir/php-fpm.log");
        $this->assertStringNotContainsString('Sup3rSecret', $log);
        $this->assertSame(1, substr_count($log, 'rlock.server='), "one warning for rlock.server:\n$log");
        $this->assertSame(1, substr_count($log, 'rlock.ttl='), "one warning for rlock.ttl:\n$log");
        $this->assertSame(0, preg_match('/rlock\.(read_timeout|fencing)=/', $log), "no warning per request:\n$log");
    }
}
