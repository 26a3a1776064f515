<?php
/*
 * One statistics table per php-fpm pool (issue 29): a master with two pools under two users
 * (www as nobody, shop as www-data). A worker of one pool sees and resets only its pool's
 * numbers: no keys, servers or counters of the other; a worker cannot read the other pool's
 * table; a shell reads a running pool's as root (rlock_status(pool: 'www')), not as another
 * user; the CLI has a table of its own.
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit -c tests/phpunit/phpunit.xml --filter StatsPoolsFpmTest
 */

declare(strict_types=1);

final class StatsPoolsFpmTest extends OneServerTestCase
{
	private ?Fpm $fpm = null;
	private int $shopPort = 0;

	protected function setUp(): void
	{
		if (posix_getuid() !== 0) {
			$this->markTestSkipped('two pools under two users need root');
		}
		parent::setUp();
		$this->shopPort = RedisServer::freePort();
		$this->fpm = Fpm::start(2, [], ['user = nobody', 'group = nogroup',
			'[shop]', "listen = 127.0.0.1:$this->shopPort", 'pm = static', 'pm.max_children = 2', 'user = www-data',
			'group = www-data', 'catch_workers_output = yes', 'php_admin_flag[display_errors] = on']);
		file_put_contents("{$this->fpm->dir}/take.php", '<?php
$l = new RLock($_GET["key"], ["server" => $_GET["dsn"]]);
$l->lock();
$l->unlock();
echo "ok";');
		file_put_contents("{$this->fpm->dir}/status.php", '<?php
echo json_encode(rlock_status());');
		file_put_contents("{$this->fpm->dir}/reset.php", '<?php
rlock_status_reset();
echo "reset";');
		file_put_contents("{$this->fpm->dir}/other.php", '<?php
try {
    rlock_status(pool: $_GET["pool"]);
    echo "read";
} catch (RLockException $e) {
    echo $e->getMessage();
}');
	}

	protected function tearDown(): void
	{
		$log = $this->fpm?->halt() ?? "";
		if (getenv("RLOCK_FPM_LOG")) { fwrite(STDERR, $log); }
		$this->fpm?->stop();
		parent::tearDown();
		$this->assertStringNotContainsString('WARNING: [pool', preg_replace('/.*(child \d+ (said into|exited)).*\n/', '', $log));
	}

	/** $script of the pool listening on $port (0: www), $query given. */
	private function get(string $script, array $query = [], int $port = 0): string
	{
		return $this->fpm->get("{$this->fpm->dir}/$script", http_build_query($query), $port);
	}

	private function status(int $port = 0): array
	{
		$body = $this->get('status.php', [], $port);
		$s = json_decode($body, true);
		$this->assertIsArray($s, $body);
		return $s;
	}

	public function testEachPoolSeesAndResetsOnlyItsOwn(): void
	{
		$dsn = "redis://127.0.0.1:{$this->redis->port}";
		// every worker of each pool serves at least one request: 4 each, 2 workers
		for ($i = 0; $i < 4; $i++) {
			$this->assertSame('ok', $this->get('take.php', ['key' => 'tenantA:order:4711', 'dsn' => $dsn]));
			$this->assertSame('ok', $this->get('take.php', ['key' => 'tenantB:cart:9', 'dsn' => $dsn], $this->shopPort));
		}
		$www = $this->status();
		$shop = $this->status($this->shopPort);
		$this->assertSame(['rlock:tenantA:order:4711'], array_keys($www['keys']), 'www sees its key alone');
		$this->assertSame(['rlock:tenantB:cart:9'], array_keys($shop['keys']), 'shop sees its key alone');
		$this->assertSame(4, $www['acquires']);
		$this->assertSame(4, $shop['acquires']);
		$this->assertSame(["127.0.0.1:{$this->redis->port}"], array_keys($www['servers']));

		// shop resets: www keeps its numbers
		$this->assertSame('reset', $this->get('reset.php', [], $this->shopPort));
		$this->assertSame(0, $this->status($this->shopPort)['acquires']);
		$this->assertSame([], $this->status($this->shopPort)['keys']);
		$this->assertSame(4, $this->status()['acquires'], "shop's reset left www's counters");

		// a worker of shop (www-data) cannot read www's table (nobody's, 0600)
		$this->assertMatchesRegularExpression('/^Cannot read the statistics of php-fpm pool "www" .*Permission denied/',
			$this->get('other.php', ['pool' => 'www'], $this->shopPort));

		// the CLI: a table of its own
		$this->assertArrayNotHasKey('rlock:tenantA:order:4711', rlock_status()['keys']);
	}

	public function testAShellReadsARunningPoolAsRootNotAsAnotherUser(): void
	{
		$dsn = "redis://127.0.0.1:{$this->redis->port}";
		$this->assertSame('ok', $this->get('take.php', ['key' => 'tenantA:order:1', 'dsn' => $dsn]));
		$this->assertSame('ok', $this->get('take.php', ['key' => 'tenantA:order:1', 'dsn' => $dsn]));

		$s = rlock_status(pool: 'www');
		$this->assertSame(2, $s['keys']['rlock:tenantA:order:1']['acquires'] ?? null, json_encode($s));
		$this->assertStringContainsString('rlock_acquires_total{key="rlock:tenantA:order:1",kind="lock"} 2', rlock_metrics(pool: 'www'));
		$this->status($this->shopPort);   // shop's first request makes its table
		$shop = rlock_status(pool: 'shop');
		$this->assertSame([], $shop['keys'], 'a pool that took no lock has nothing of the other');

		// as www-data: www's table (nobody's) is closed to it
		[$proc, $pipes] = Processes::start('posix_setgid(33); posix_setuid(33);
try { rlock_status(pool: "www"); echo "read"; } catch (RLockException $e) { echo $e->getMessage(); }');
		$out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
		proc_close($proc);
		$this->assertMatchesRegularExpression('/^Cannot read the statistics of php-fpm pool "www" .*Permission denied/', $out);

		// a pool that does not run
		$this->expectException(RLockException::class);
		$this->expectExceptionMessage('No running php-fpm pool "nosuch"');
		rlock_status(pool: 'nosuch');
	}
}
