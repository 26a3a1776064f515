<?php
/*
 * The status page (examples/status/) through nginx and php-fpm, in headless Chromium: a short
 * sale on the seckill stack (scripts/lib/stack.sh), then the page, once its script has polled
 * status.php, shows the sale's key with the counts the sale made (acquires: the buyers that
 * took the lock; timeouts: the 503s), whichever worker answers. Its screenshot, taken while a
 * sale runs, goes to $RLOCK_SCREENSHOT when set (docs/status-page.png, which the README shows,
 * was made so), else to a temporary file: a test run leaves the tree as it was.
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit -c tests/phpunit/phpunit.xml --filter StatusPageTest
 *
 * Needs what SeckillTest needs, and Debian's chromium.
 */

declare(strict_types=1);

use PHPUnit\Framework\TestCase;

require_once __DIR__ . '/Stack.php';
require_once __DIR__ . '/Chromium.php';

final class StatusPageTest extends TestCase
{
	private static ?Stack $stack = null;

	public static function setUpBeforeClass(): void
	{
		Chromium::skipUnlessInstalled();
		self::$stack = Stack::start(8, 500);
	}

	public static function tearDownAfterClass(): void
	{
		self::$stack?->stop();
		self::$stack = null;
	}

	/** The page's row of $key in the DOM Chromium dumped: its cells by field, or null. */
	private static function row(string $dom, string $key): ?array
	{
		$doc = new DOMDocument();
		@$doc->loadHTML($dom);
		$xpath = new DOMXPath($doc);
		$rows = $xpath->query('//table[@id="keys"]/tbody/tr[@data-key="' . $key . '"]');
		if ($rows === false || $rows->length !== 1) {
			return null;
		}
		$cells = [];
		foreach ($xpath->query('td[@data-f]', $rows->item(0)) as $td) {
			$cells[$td->getAttribute('data-f')] = trim($td->textContent);
		}
		return $cells;
	}

	public function testThePageShowsTheSalesKeyWithItsCountsAfterItsScriptPolled(): void
	{
		$sku = 'status-' . bin2hex(random_bytes(3));
		// a queue long enough for some buyers to give up (503 busy): each sale takes 2 ms
		$r = seckill_run(self::$stack->cfg, ['sku' => $sku, 'stock' => 100, 'requests' => 600, 'concurrency' => 60,
			'wait' => 40, 'work_us' => 2000]);
		$this->assertSame(0, $r['errors'], self::$stack->logs());
		$this->assertSame(0, $r['oversold']);
		$took = $r['http'][200] ?? 0;
		$busy = $r['http'][503] ?? 0;
		$this->assertSame(600, $took + $busy, json_encode($r['http']));

		$dom = Chromium::run(['--dump-dom'], self::$stack->cfg['url'] . '/status/', 5000);
		$this->assertMatchesRegularExpression('/id="updated"[^>]* data-polls="[1-9]/', $dom, 'the script polled status.php');
		$row = self::row($dom, seckill_lock_key($sku));
		$this->assertNotNull($row, "the sale's key is on the page:\n" . substr($dom, 0, 4000));
		$this->assertSame((string) $took, $row['acquires'], 'every buyer that took the lock, whichever worker served it');
		$this->assertSame((string) $busy, $row['timeouts'], 'every 503');
		$this->assertSame('0', $row['lost']);
		$this->assertGreaterThan(0, (int) $row['waits']);
	}

	public function testTheRateLimitPanelShowsTheSalesShedRequests(): void
	{
		$sku = 'shed-' . bin2hex(random_bytes(3));
		$before = self::rateTotals(Chromium::run(['--dump-dom'], self::$stack->cfg['url'] . '/status/', 2000));
		// each buyer clicks 4 times within the second, 1 allowed: the rest are shed (429) before the lock
		$r = seckill_run(self::$stack->cfg, ['sku' => $sku, 'stock' => 100, 'requests' => 200, 'concurrency' => 20,
			'clicks' => 4, 'limit' => 1, 'wait' => 2000]);
		$this->assertSame(0, $r['errors'], self::$stack->logs());
		$this->assertGreaterThan(0, $r['shed'], json_encode($r['http']));

		$dom = Chromium::run(['--dump-dom'], self::$stack->cfg['url'] . '/status/', 5000);
		$this->assertMatchesRegularExpression('/id="updated"[^>]* data-polls="[1-9]/', $dom, 'the script polled status.php');
		$after = self::rateTotals($dom);
		$this->assertNotNull($after, "the panel:\n" . substr($dom, 0, 4000));
		$this->assertSame($r['shed'], $after[1] - $before[1], 'every 429 a refusal, whichever worker served it');
		$this->assertSame($r['requests'] - $r['shed'], $after[0] - $before[0], 'every request that reached the lock admitted');
	}

	/** The rate limit panel's totals in the DOM: [admitted, refused], or null. */
	private static function rateTotals(string $dom): ?array
	{
		return preg_match('/id="rate-totals">(\d+) admitted, (\d+) refused/', $dom, $m) ? [(int) $m[1], (int) $m[2]] : null;
	}

	public function testScreenshotDuringASale(): void
	{
		$png = getenv('RLOCK_SCREENSHOT') ?: null;
		$tmp = sys_get_temp_dir() . '/rlock-status-' . getmypid() . '.png';
		// the sale in the background; the page polls through it (a real reply per second of
		// virtual time), so its chart draws the sale's rates
		$repo = dirname(__DIR__, 2);
		$env = self::$stack->env + getenv();
		$sale = proc_open(['php', "$repo/examples/seckill/bin/seckill.php", 'run', '--sku=phone-sale', '--stock=300',
			'--requests=4000', '--concurrency=60', '--wait=40', '--work-us=1500'],
			[0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes, $repo, $env);
		Chromium::run(["--screenshot=$tmp"], self::$stack->cfg['url'] . '/status/', 60000);
		proc_close($sale);
		$this->assertFileExists($tmp);
		$size = getimagesize($tmp);
		$this->assertSame([1280, 900], [$size[0] ?? 0, $size[1] ?? 0]);
		$png === null ? unlink($tmp) : rename($tmp, $png);
	}
}
