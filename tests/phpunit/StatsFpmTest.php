<?php
/*
 * Pool-wide statistics across php-fpm workers (issue 21): a sale of 3000 requests over 32
 * workers recycled every 50 requests (so more than a hundred processes come and go), its
 * lock contended enough that some buyers give up (503). rlock_status(), read through a
 * php-fpm page, must count every worker's acquires and timeouts exactly.
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit tests/phpunit/StatsFpmTest.php
 */

declare(strict_types=1);

use PHPUnit\Framework\TestCase;

require_once __DIR__ . '/Stack.php';

final class StatsFpmTest extends TestCase
{
	private const WORKERS = 32;
	private const MAX_REQUESTS = 50;
	private static ?Stack $stack = null;

	public static function setUpBeforeClass(): void
	{
		self::$stack = Stack::start(self::WORKERS, self::MAX_REQUESTS);
	}

	public static function tearDownAfterClass(): void
	{
		self::$stack?->stop();
		self::$stack = null;
	}

	public function testTheSaleIsCountedExactlyAcrossWorkers(): void
	{
		$stack = self::$stack;
		$sku = 'stats-' . bin2hex(random_bytes(3));
		$key = seckill_lock_key($sku);
		$before = $stack->status();
		$this->assertTrue($before['enabled'], 'statistics on in php-fpm (rlock.stats_keys default)');

		// 64 buyers at a time for a lock held 2 ms per sale: some wait longer than 50 ms and give up
		$r = seckill_run($stack->cfg, ['sku' => $sku, 'stock' => 3000, 'requests' => 3000, 'concurrency' => 64,
			'wait' => 50, 'work_us' => 2000]);
		$report = seckill_report('stats sale', $r) . $stack->logs();
		$took = array_sum(array_intersect_key($r['status'], array_flip(['ok', 'sold_out', 'already_bought'])));
		$busy = $r['status']['busy'] ?? 0;
		$this->assertSame(0, $r['errors'], $report);
		$this->assertSame(3000, $took + $busy, "every request took the lock or gave up:\n$report");
		$this->assertSame($took, $r['http'][200] ?? 0, $report);
		$this->assertSame($busy, $r['http'][503] ?? 0, $report);
		$this->assertGreaterThan(0, $busy, "the sale was contended enough for timeouts:\n$report");
		$this->assertGreaterThan(self::WORKERS, $r['worker_processes'], "pm.max_requests recycled workers:\n$report");

		$after = $stack->status();
		$k = $after['keys'][$key] ?? null;
		$this->assertNotNull($k, "the sale's key is tracked:\n" . json_encode(array_keys($after['keys'])));
		$this->assertSame($took, $k['acquires'], 'the key\'s acquires are the requests that took the lock');
		$this->assertSame($busy, $k['timeouts'], 'its timeouts are the 503s');
		$this->assertSame($took, $after['acquires'] - $before['acquires'], 'the pool\'s acquires');
		$this->assertSame($busy, $after['timeouts'] - $before['timeouts'], 'the pool\'s timeouts');
		$this->assertSame(3000, $k['wait']['count'], 'every lock() with a wait is in the wait histogram');
		$this->assertSame(0, $k['lost']);
		$this->assertLessThanOrEqual($k['contended'], $k['waits']);
		if ($busy > 30) {
			// more than 1% gave up after their 50 ms: the 99th percentile is among them
			$this->assertGreaterThanOrEqual(50.0, $k['wait']['p99_ms']);
		}
		$this->assertSame(0, $after['holds'], 'nothing held once the responses ended');
		$this->assertSame(0, $after['waiters'], 'nobody waits');
		$server = $after['servers'][substr($stack->cfg['lock_redis'], strlen('redis://'))] ?? null;
		$this->assertNotNull($server, json_encode(array_keys($after['servers'])));
		$this->assertGreaterThanOrEqual($took * 2, $server['commands'], 'an acquire and a release each');
		$this->assertSame(0, array_sum($server['errors']), json_encode($server['errors']));
	}
}
