<?php
/*
 * The status page (examples/status/) when its polls fail, in headless Chromium: served by
 * PHP's built-in server through a router whose status.php answers as a plan says (ok: the
 * real one; fail: 502; junk: 200 with an HTML error page), one step a poll, the last step
 * repeated. The page says since when its numbers are stale while polls fail, and is live
 * again once one answers.
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit -c tests/phpunit/phpunit.xml --filter StatusPageStaleTest
 */

declare(strict_types=1);

use PHPUnit\Framework\TestCase;

require_once __DIR__ . '/Chromium.php';

final class StatusPageStaleTest extends TestCase
{
	private $server = null;
	private string $dir = '';
	private string $url = '';

	protected function setUp(): void
	{
		Chromium::skipUnlessInstalled();
		$this->dir = sys_get_temp_dir() . '/rlock-stale-' . getmypid() . '-' . bin2hex(random_bytes(4));
		mkdir($this->dir);
		$examples = dirname(__DIR__, 2) . '/examples/status';
		file_put_contents("$this->dir/router.php", '<?php
$dir = ' . var_export($this->dir, true) . ';
$path = parse_url($_SERVER["REQUEST_URI"], PHP_URL_PATH);
if ($path === "/status/status.php") {
    $n = (int) @file_get_contents("$dir/polls");
    file_put_contents("$dir/polls", (string) ($n + 1));
    $plan = explode(",", trim((string) file_get_contents("$dir/plan")));
    $step = $plan[min($n, count($plan) - 1)];
    if ($step === "fail") {
        http_response_code(502);
        echo "<html><body>502 Bad Gateway</body></html>";
        return true;
    }
    if ($step === "junk") {
        echo "<br /><b>Fatal error</b>: out of memory";
        return true;
    }
    require ' . var_export("$examples/status.php", true) . ';
    return true;
}
if ($path === "/status/") {
    require ' . var_export("$examples/index.php", true) . ';
    return true;
}
http_response_code(404);
return true;
');
		// a free port: bound by the kernel, let go, taken by the server
		$s = stream_socket_server('tcp://127.0.0.1:0');
		$port = (int) explode(':', stream_socket_get_name($s, false))[1];
		fclose($s);
		$this->server = proc_open(array_merge(Processes::php(), ['-d', 'rlock.stats_keys=64', '-S', "127.0.0.1:$port",
			"$this->dir/router.php"]), [0 => ['file', '/dev/null', 'r'], 1 => ['file', "$this->dir/server.log", 'w'],
			2 => ['file', "$this->dir/server.log", 'a']], $pipes);
		$this->url = "http://127.0.0.1:$port/status/";
		for ($deadline = microtime(true) + 20; !($c = @fsockopen('127.0.0.1', $port, $errno, $errstr, 1)); usleep(20000)) {
			$this->assertLessThan($deadline, microtime(true), "php -S never listened:\n" . @file_get_contents("$this->dir/server.log"));
		}
		fclose($c);
	}

	protected function tearDown(): void
	{
		if ($this->server) {
			proc_terminate($this->server);
			proc_close($this->server);
		}
		if ($this->dir !== '') {
			exec('rm -rf ' . escapeshellarg($this->dir));
		}
	}

	/** The page after $budgetMs of virtual time with status.php answering as $plan says: its #updated span. */
	private function updated(string $plan, int $budgetMs): array
	{
		file_put_contents("$this->dir/plan", $plan);
		@unlink("$this->dir/polls");
		$dom = Chromium::run(['--dump-dom'], $this->url, $budgetMs);
		$this->assertSame(1, preg_match('/<span([^>]*\bid="updated"[^>]*)>([^<]*)<\/span>/', $dom, $m), substr($dom, 0, 3000));
		preg_match_all('/([a-z-]+)="([^"]*)"/', $m[1], $attrs, PREG_SET_ORDER);
		$out = ['text' => $m[2], 'polls' => (int) @file_get_contents("$this->dir/polls"), 'body' => preg_match('/<body class="stale"/', $dom) === 1];
		foreach ($attrs as $a) {
			$out[$a[1]] = $a[2];
		}
		return $out;
	}

	public function testThePageSaysSinceWhenItIsStaleWhilePollsFail(): void
	{
		$u = $this->updated('ok,fail', 8000);
		$this->assertGreaterThanOrEqual(4, $u['polls'], 'the page kept polling');
		$this->assertMatchesRegularExpression('/^stale since \d\d:\d\d:\d\d \(\d+ polls failed\)$/', $u['text']);
		$this->assertSame('stale', $u['class'] ?? null);
		$this->assertSame($u['polls'] - 1, (int) ($u['data-fails'] ?? 0), 'every failed poll counted');
		$this->assertTrue($u['body'], 'the numbers dimmed');
	}

	public function testAnAnswerThatIsNotJsonIsAFailedPoll(): void
	{
		$u = $this->updated('junk', 5000);
		$this->assertMatchesRegularExpression('/^stale since \d\d:\d\d:\d\d \(\d+ polls? failed\)$/', $u['text']);
		$this->assertGreaterThanOrEqual(2, (int) ($u['data-fails'] ?? 0));
	}

	public function testThePageIsLiveAgainOnceAPollAnswers(): void
	{
		$u = $this->updated('ok,fail,fail,fail,ok', 8000);
		$this->assertGreaterThanOrEqual(6, $u['polls'], 'the page polled through the failures and after');
		$this->assertMatchesRegularExpression('/^live, updated \d\d:\d\d:\d\d$/', $u['text']);
		$this->assertSame('', $u['class'] ?? '');
		$this->assertSame('0', $u['data-fails'] ?? null);
		$this->assertFalse($u['body']);
	}
}
