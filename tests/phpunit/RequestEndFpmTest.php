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
    private ?Fpm $fpm = null;
    private string $dir;

    protected function setUp(): void
    {
        $this->fpm = Fpm::start();
        parent::setUp();
        $this->dir = $this->fpm->dir;
    }

    protected function tearDown(): void
    {
        $this->fpm?->stop();
        parent::tearDown();
    }

    /** GET $script?$query from php-fpm; returns the body once FCGI_END_REQUEST arrived. */
    private function get(string $script, string $query): string
    {
        return $this->fpm->get($script, $query);
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
        $this->fpm->stop();
        $this->fpm = Fpm::start(1, ['log_errors=1', 'rlock.server=admin:Sup3rSecret@127.0.0.1:16383', 'rlock.ttl=5'],
            ['php_admin_value[rlock.read_timeout] = 5', 'php_value[rlock.fencing] = flase']);
        $this->dir = $this->fpm->dir;
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
        $log = $this->fpm->halt();
        $this->assertStringNotContainsString('Sup3rSecret', $log);
        $this->assertSame(1, substr_count($log, 'rlock.server='), "one warning for rlock.server:\n$log");
        $this->assertSame(1, substr_count($log, 'rlock.ttl='), "one warning for rlock.ttl:\n$log");
        $this->assertSame(0, preg_match('/rlock\.(read_timeout|fencing)=/', $log), "no warning per request:\n$log");
    }
}
