<?php
/*
 * The request's last moments under php-fpm: a worker (pm = static, one child) serves a
 * request whose session save handler takes locks in write(), which the session module
 * calls in its RSHUTDOWN, after rlock's. The locks must be released by the time the
 * response ends (FCGI_END_REQUEST), and the watchdog must renew nothing in the worker's
 * next request. And a persistent rediss:// (TLS) connection serves every request of the
 * worker. php-fpm is spoken to directly, over FastCGI: no web server in between.
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
}
