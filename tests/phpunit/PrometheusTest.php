<?php
/*
 * A real Prometheus (Debian's prometheus package) scrapes rlock_metrics() through nginx and
 * php-fpm (examples/seckill/public/metrics.php) during a sale; its query API then answers the
 * sale's acquires and the 99th percentile of its waits as rlock_status() has them.
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit tests/phpunit/PrometheusTest.php
 */

declare(strict_types=1);

use PHPUnit\Framework\TestCase;

require_once __DIR__ . '/Stack.php';

final class PrometheusTest extends TestCase
{
	private const PROMETHEUS = '/usr/bin/prometheus';
	private static ?Stack $stack = null;
	/** @var resource|null */
	private static $proc = null;
	private static string $dir = '';
	private static string $api = '';

	public static function setUpBeforeClass(): void
	{
		if (!is_executable(self::PROMETHEUS)) {
			self::markTestSkipped(self::PROMETHEUS . ' is not installed (Debian: prometheus)');
		}
		self::$stack = Stack::start(16, 200);
		self::$dir = sys_get_temp_dir() . '/rlock-prometheus-' . getmypid() . '-' . bin2hex(random_bytes(3));
		mkdir(self::$dir);
		$port = RedisServer::freePort();
		$target = parse_url(self::$stack->cfg['url']);
		file_put_contents(self::$dir . '/prometheus.yml', implode("\n", [
			'global:',
			'  scrape_interval: 1s',
			'  scrape_timeout: 1s',
			'scrape_configs:',
			'  - job_name: rlock',
			'    metrics_path: /metrics.php',
			'    static_configs:',
			"      - targets: ['{$target['host']}:{$target['port']}']",
		]) . "\n");
		self::$proc = proc_open([self::PROMETHEUS, '--config.file=' . self::$dir . '/prometheus.yml',
			'--storage.tsdb.path=' . self::$dir . '/data', "--web.listen-address=127.0.0.1:$port"],
			[0 => ['file', '/dev/null', 'r'], 1 => ['file', self::$dir . '/prometheus.log', 'w'],
				2 => ['file', self::$dir . '/prometheus.log', 'a']], $pipes);
		self::$api = "http://127.0.0.1:$port/api/v1";
		self::await(fn () => self::query('up{job="rlock"}') === 1.0, 'Prometheus scrapes the pool');
	}

	public static function tearDownAfterClass(): void
	{
		if (self::$proc) {
			proc_terminate(self::$proc);
			proc_close(self::$proc);
			self::$proc = null;
		}
		exec('rm -rf ' . escapeshellarg(self::$dir));
		self::$stack?->stop();
		self::$stack = null;
	}

	/** The value of an instant query's single sample, or null (no sample, not up yet). */
	private static function query(string $q): ?float
	{
		$body = @file_get_contents(self::$api . '/query?query=' . rawurlencode($q));
		$r = $body === false ? null : json_decode($body, true);
		$result = $r['data']['result'] ?? [];
		return count($result) === 1 ? (float) $result[0]['value'][1] : null;
	}

	private static function await(callable $ok, string $what): void
	{
		for ($deadline = microtime(true) + 60; !$ok(); usleep(200000)) {
			if (microtime(true) > $deadline) {
				self::fail("never: $what\n" . @file_get_contents(self::$dir . '/prometheus.log'));
			}
		}
	}

	/** Prometheus' histogram_quantile() over le => cumulative count (seconds), as its docs define it. */
	private static function quantile(float $q, array $cumulative): float
	{
		$les = array_keys($cumulative);
		$total = end($cumulative);
		$rank = $q * $total;
		$prevLe = 0.0;
		$prevCount = 0;
		foreach ($cumulative as $le => $count) {
			if ($count >= $rank) {
				if ($le === '+Inf') {
					return (float) $les[count($les) - 2];  // the highest finite bound
				}
				return $prevLe + ((float) $le - $prevLe) * ($rank - $prevCount) / ($count - $prevCount);
			}
			[$prevLe, $prevCount] = [(float) $le, $count];
		}
		return NAN;
	}

	public function testPrometheusScrapesTheSale(): void
	{
		$stack = self::$stack;
		$sku = 'prom-' . bin2hex(random_bytes(3));
		$key = seckill_lock_key($sku);
		$r = seckill_run($stack->cfg, ['sku' => $sku, 'stock' => 1000, 'requests' => 1000, 'concurrency' => 32,
			'wait' => 50, 'work_us' => 2000]);
		$report = seckill_report('prometheus sale', $r) . $stack->logs();
		$this->assertSame(0, $r['errors'], $report);
		$took = $r['http'][200] ?? 0;
		$this->assertSame(1000, $took + ($r['http'][503] ?? 0), $report);

		// what the pool counted, read through php-fpm; the sale is over, nothing changes it now
		$k = $stack->status()['keys'][$key];
		$this->assertSame($took, $k['acquires'], $report);

		$sel = '{key="' . addcslashes($key, '\\"') . '"}';
		self::await(fn () => self::query("sum(rlock_acquires_total$sel)") === (float) $took,
			"Prometheus has the sale's $took acquires (it says " . var_export(self::query("sum(rlock_acquires_total$sel)"), true) . ')');
		$this->assertSame((float) $k['timeouts'], self::query("sum(rlock_timeouts_total$sel)"));
		$this->assertSame(1000.0, self::query("sum(rlock_wait_seconds_count$sel)"));

		// the 99th percentile of the waits: Prometheus' from the buckets it scraped, ours from
		// the same buckets, and within the bucket rlock_status() puts it in
		$cumulative = [];
		$n = 0;
		foreach ($k['wait']['buckets'] as $leMs => $count) {
			$n += $count;
			$cumulative[$leMs === '+Inf' ? '+Inf' : (string) ((float) $leMs / 1000)] = $n;
		}
		$p99 = self::query("histogram_quantile(0.99, sum by (le) (rlock_wait_seconds_bucket$sel))");
		$this->assertNotNull($p99);
		$this->assertEqualsWithDelta(self::quantile(0.99, $cumulative), $p99, 1e-9, json_encode($cumulative));
		$this->assertEqualsWithDelta($k['wait']['p99_ms'] / 1000, $p99, 0.0001 + 0.5 * $p99,
			'rlock_status() p99 agrees with Prometheus (its own is capped by the largest wait seen)');
		if (($r['http'][503] ?? 0) > 10) {
			// more than 1% gave up after 50 ms
			$this->assertGreaterThanOrEqual(0.05, $p99);
		}
	}
}
