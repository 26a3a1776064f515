<?php
/*
 * The seckill scenario under nginx + php-fpm (issue 4): the stack of scripts/lib/stack.sh
 * (two Redis servers, php-fpm with 16 static workers recycled every 100 requests and
 * rlock loaded, nginx), 2,000 concurrent buyers for 50 items, and requests that die
 * holding the lock.
 *
 *   phpunit tests/phpunit/SeckillTest.php
 *
 * Needs nginx, the php-fpm of the PHP running the tests (php8.x-fpm), redis-server,
 * phpredis for the CLI, and the extension built (modules/rlock.so, or RLOCK_SO /
 * RLOCK_EXT=/path/to/rlock.so). Also runs in the suite of scripts/test.sh
 * (tests/phpunit/phpunit.xml); php-fpm loads the extension by itself.
 */

declare(strict_types=1);

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;

require_once __DIR__ . '/../../examples/seckill/lib/client.php';

final class SeckillTest extends TestCase
{
	private const WORKERS = 16;
	private const MAX_REQUESTS = 100;
	private const TERMINATE_S = 3;

	/** @var array<string,string> the KEY=VALUE lines of stack.sh start */
	private static array $stack = [];
	private static array $cfg = [];

	public static function setUpBeforeClass(): void
	{
		$repo = dirname(__DIR__, 2);
		$fpm = '/usr/sbin/php-fpm' . PHP_MAJOR_VERSION . '.' . PHP_MINOR_VERSION;
		foreach (['/usr/sbin/nginx', $fpm, '/usr/bin/redis-server'] as $bin) {
			if (!is_executable($bin)) {
				self::markTestSkipped("$bin is not installed");
			}
		}
		if (!extension_loaded('redis')) {
			self::markTestSkipped('phpredis is not loaded in the CLI (php' . PHP_MAJOR_VERSION . '.' . PHP_MINOR_VERSION . '-redis)');
		}
		$so = getenv('RLOCK_SO') ?: getenv('RLOCK_EXT') ?: "$repo/modules/rlock.so";
		if (!is_file($so)) {
			self::fail("$so not found: build the extension first (phpize && ./configure && make)");
		}

		$env = getenv() + [];
		$env['RLOCK_SO'] = $so;
		$env['STACK_WORKERS'] = (string) self::WORKERS;
		$env['STACK_MAX_REQUESTS'] = (string) self::MAX_REQUESTS;
		$env['STACK_TERMINATE'] = (string) self::TERMINATE_S;
		$proc = proc_open(
			['bash', "$repo/scripts/lib/stack.sh", 'start'],
			[0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']],
			$pipes,
			$repo,
			$env,
		);
		$out = stream_get_contents($pipes[1]);
		$err = stream_get_contents($pipes[2]);
		$status = proc_close($proc);
		foreach (explode("\n", trim((string) $out)) as $line) {
			if (str_contains($line, '=')) {
				[$k, $v] = explode('=', $line, 2);
				self::$stack[$k] = $v;
			}
		}
		if ($status !== 0 || !isset(self::$stack['STACK_URL'])) {
			self::fail("the stack did not start:\n$out\n$err");
		}
		self::$cfg = [
			'url' => self::$stack['STACK_URL'],
			'lock_redis' => self::$stack['STACK_LOCK_REDIS'],
			'shop_redis' => self::$stack['STACK_SHOP_REDIS'],
			'workers' => self::WORKERS,
			'max_requests' => self::MAX_REQUESTS,
			'terminate' => self::TERMINATE_S,
		];
	}

	public static function tearDownAfterClass(): void
	{
		if (isset(self::$stack['STACK_DIR'])) {
			exec('bash ' . escapeshellarg(dirname(__DIR__, 2) . '/scripts/lib/stack.sh')
				. ' stop ' . escapeshellarg(self::$stack['STACK_DIR']));
			self::$stack = [];
		}
	}

	/** What php-fpm and PHP logged, for failure messages. */
	private static function logs(): string
	{
		$dir = self::$stack['STACK_DIR'] ?? '';
		$text = '';
		foreach (['php-fpm.log', 'php-error.log', 'nginx-error.log'] as $name) {
			if (is_file("$dir/$name")) {
				$lines = array_filter(
					file("$dir/$name", FILE_IGNORE_NEW_LINES) ?: [],
					fn (string $l): bool => !str_contains($l, 'NOTICE'),
				);
				$text .= "--- $name\n" . implode("\n", array_slice($lines, -15)) . "\n";
			}
		}
		return $text;
	}

	private function sale(array $opt): array
	{
		return seckill_run(self::$cfg, $opt + ['concurrency' => 200]);
	}

	public function testLockedSaleSellsEachItemExactlyOnce(): void
	{
		$r = $this->sale(['sku' => 'locked', 'stock' => 50, 'requests' => 2000]);
		$report = seckill_report('locked sale', $r) . self::logs();

		$this->assertSame(0, $r['errors'], $report);
		$this->assertSame([200 => 2000], $r['http'], $report);
		$this->assertSame(50, $r['orders'], $report);
		$this->assertSame(50, $r['ok_responses'], $report);
		$this->assertSame(0, $r['oversold'], $report);
		$this->assertSame(0, $r['stock_left'], $report);
		$this->assertSame(50, $r['buyers'], $report);
		$this->assertFalse($r['lock_left_behind'], $report);

		// Persistent connections: one per worker process, however many requests it serves.
		// Workers are recycled every MAX_REQUESTS requests, so more processes than
		// WORKERS serve the run; at any moment at most WORKERS connections are open.
		$this->assertGreaterThan(self::WORKERS, $r['worker_processes'], 'pm.max_requests recycled workers' . "\n" . $report);
		$this->assertLessThanOrEqual($r['worker_processes'], $r['lock_connections'], $report);
		$this->assertLessThanOrEqual(self::WORKERS, $r['lock_clients_now'], $report);
	}

	/** Buyers clicking 3 times behind a limit of 1 per second each: the repeats get a 429
	 * before they reach the lock (a buyer's clicks span at most the sale's seconds), every
	 * item sold once, and the limiter shares the lock's persistent connection. */
	public function testRateLimitShedsRepeatedClicksBeforeTheLock(): void
	{
		$r = $this->sale(['sku' => 'limited', 'stock' => 20, 'requests' => 600, 'clicks' => 3, 'limit' => 1]);
		$report = seckill_report('rate-limited sale', $r) . self::logs();

		$this->assertSame(0, $r['errors'], $report);
		$this->assertSame(600, ($r['http'][200] ?? 0) + ($r['http'][429] ?? 0), $report);
		$this->assertSame(20, $r['orders'], $report);
		$this->assertSame(0, $r['oversold'], $report);
		// 200 buyers, each admitted at most once per started second of the sale
		$this->assertGreaterThanOrEqual(600 - 200 * (1 + (int) ceil($r['seconds'])), $r['shed'], $report);
		$this->assertGreaterThan(0, $r['shed'], $report);
		$this->assertLessThanOrEqual($r['worker_processes'], $r['lock_connections'], $report);
	}

	public function testWithoutPersistenceEveryRequestConnects(): void
	{
		$r = $this->sale(['sku' => 'fresh', 'stock' => 20, 'requests' => 500, 'persistent' => false]);
		$report = seckill_report('persistent => false', $r) . self::logs();

		$this->assertSame(20, $r['orders'], $report);
		$this->assertSame(0, $r['oversold'], $report);
		$this->assertGreaterThanOrEqual(500, $r['lock_connections'], $report);
		// Connections of persistent => false are closed at request end: no more are open
		// than before (the pooled ones of earlier tests, which recycling may only lower).
		$this->assertLessThanOrEqual($r['lock_clients_before'], $r['lock_clients_now'], $report);
	}

	public function testWithoutTheLockTheSameCodeOversells(): void
	{
		// The harness can see an oversell: the race is real without the lock.
		$r = $this->sale(['sku' => 'unlocked', 'stock' => 50, 'requests' => 2000, 'lock' => false, 'work_us' => 200]);
		$this->assertGreaterThan(0, $r['oversold'], seckill_report('no lock', $r));
	}

	public static function deaths(): array
	{
		$cases = [];
		foreach (['fatal', 'exception', 'exit', 'timeout'] as $how) {
			foreach (['sync', 'lock'] as $api) {
				$cases["$how/$api"] = [$how, $api];
			}
		}
		return $cases;
	}

	/** @dataProvider deaths */
	#[DataProvider('deaths')]
	public function testRequestDeathReleasesTheLockAtOnce(string $how, string $api): void
	{
		$d = seckill_death(self::$cfg, $how, $api);
		$line = seckill_death_line($d) . "\n" . self::logs();

		$this->assertContains($d['http'], [200, 500], $line);
		$this->assertFalse($d['left_behind'], "lock left behind after $how\n$line");
		$this->assertSame('ok', $d['next_status'], $line);
		$this->assertLessThan(1000, $d['next_wait_ms'], $line);
	}

	/** @dataProvider killedApis */
	#[DataProvider('killedApis')]
	public function testKilledWorkerLockExpiresWithinTheTtl(string $api): void
	{
		$d = seckill_death(self::$cfg, 'killed', $api);
		$line = seckill_death_line($d) . "\n" . self::logs();

		$this->assertSame(502, $d['http'], $line);
		if ($d['left_behind']) {
			$this->assertLessThanOrEqual(SECKILL_LOCK_TTL_MS, $d['pttl_ms'], $line);
			$this->assertGreaterThan(0, $d['pttl_ms'], 'the key must carry its TTL' . "\n" . $line);
		}
		$this->assertSame('ok', $d['next_status'], $line);
		// The next buyer waits for the lease to run out, not longer (some slack for wake-up).
		$this->assertLessThanOrEqual(($d['pttl_ms'] ?? 0) + 1000, $d['next_wait_ms'], $line);
		$this->assertFalse($d['held_after'], $line);
	}

	public static function killedApis(): array
	{
		return ['sync' => ['sync'], 'lock' => ['lock']];
	}

	public function testPooledConnectionsStayHealthyAfterDeathsAndRecycling(): void
	{
		// Every worker has by now served requests that died, timed out or were recycled:
		// a reused pooled connection must not answer with a stale reply.
		$r = $this->sale(['sku' => 'after', 'stock' => 30, 'requests' => 1000]);
		$report = seckill_report('after the deaths', $r) . self::logs();

		$this->assertSame(0, $r['errors'], $report);
		$this->assertSame([200 => 1000], $r['http'], $report);
		$this->assertSame(30, $r['orders'], $report);
		$this->assertSame(0, $r['oversold'], $report);
		$this->assertFalse($r['lock_left_behind'], $report);
		$this->assertLessThanOrEqual(self::WORKERS, $r['lock_clients_now'], $report);
	}

	public static function peers(): array
	{
		return ['baton' => ['baton'], 'floor' => ['floor'], 'phpredis' => ['phpredis'], 'symfony' => ['symfony'], 'laravel' => ['laravel']];
	}

	/**
	 * The locks the demo compares rlock with (buy.php?lock=KIND, the bench/lib adapters)
	 * keep the sale right too: the comparison is of the same correct sale. Fresh
	 * connections, so that no pooled one is left on the lock server for other tests.
	 *
	 * @dataProvider peers
	 */
	#[DataProvider('peers')]
	public function testEveryComparedLockSellsEachItemExactlyOnce(string $kind): void
	{
		$r = $this->sale([
			'sku' => "peer-$kind", 'stock' => 20, 'requests' => 400, 'concurrency' => 100,
			'lock' => $kind, 'persistent' => false, 'work_us' => 200,
		]);
		$report = seckill_report("$kind sale", $r) . self::logs();

		$this->assertSame($kind, $r['kind'], $report);
		$this->assertSame(0, $r['errors'], $report);
		$this->assertSame(20, $r['orders'], $report);
		$this->assertSame(20, $r['ok_responses'], $report);
		$this->assertSame(0, $r['oversold'], $report);
		$this->assertFalse($r['lock_left_behind'], $report);
	}
}
