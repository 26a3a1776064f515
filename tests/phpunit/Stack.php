<?php
/*
 * The seckill stack of scripts/lib/stack.sh (two Redis servers, php-fpm with rlock loaded,
 * nginx) for a test class: started in setUpBeforeClass, stopped in tearDownAfterClass.
 * Skips the test where nginx, php-fpm, redis-server or phpredis are missing.
 */

declare(strict_types=1);

require_once __DIR__ . '/../../examples/seckill/lib/client.php';

final class Stack
{
	/** @var array<string,string> the KEY=VALUE lines of stack.sh start */
	public readonly array $env;
	/** seckill_run()'s $cfg */
	public readonly array $cfg;

	public static function start(int $workers, int $maxRequests, int $terminateS = 3): self
	{
		$repo = dirname(__DIR__, 2);
		$fpm = '/usr/sbin/php-fpm' . PHP_MAJOR_VERSION . '.' . PHP_MINOR_VERSION;
		foreach (['/usr/sbin/nginx', $fpm, '/usr/bin/redis-server'] as $bin) {
			if (!is_executable($bin)) {
				PHPUnit\Framework\Assert::markTestSkipped("$bin is not installed");
			}
		}
		if (!extension_loaded('redis')) {
			PHPUnit\Framework\Assert::markTestSkipped('phpredis is not loaded in the CLI (php' . PHP_MAJOR_VERSION . '.'
				. PHP_MINOR_VERSION . '-redis)');
		}
		$so = getenv('RLOCK_SO') ?: getenv('RLOCK_EXT') ?: "$repo/modules/rlock.so";
		$env = getenv() + ['RLOCK_SO' => $so, 'STACK_WORKERS' => (string) $workers,
			'STACK_MAX_REQUESTS' => (string) $maxRequests, 'STACK_TERMINATE' => (string) $terminateS];
		$proc = proc_open(['bash', "$repo/scripts/lib/stack.sh", 'start'],
			[0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, $repo, $env);
		$out = (string) stream_get_contents($pipes[1]);
		$err = (string) stream_get_contents($pipes[2]);
		$status = proc_close($proc);
		$vars = [];
		foreach (explode("\n", trim($out)) as $line) {
			if (str_contains($line, '=')) {
				[$k, $v] = explode('=', $line, 2);
				$vars[$k] = $v;
			}
		}
		if ($status !== 0 || !isset($vars['STACK_URL'])) {
			if (isset($vars['STACK_DIR'])) {
				(new self($vars, []))->stop();
			}
			PHPUnit\Framework\Assert::fail("the stack did not start:\n$out\n$err");
		}
		return new self($vars, ['url' => $vars['STACK_URL'], 'lock_redis' => $vars['STACK_LOCK_REDIS'],
			'shop_redis' => $vars['STACK_SHOP_REDIS'], 'workers' => $workers, 'max_requests' => $maxRequests,
			'terminate' => $terminateS, 'fpm_pid' => (int) ($vars['STACK_FPM_PID'] ?? 0)]);
	}

	private function __construct(array $env, array $cfg)
	{
		$this->env = $env;
		$this->cfg = $cfg;
	}

	public function stop(): void
	{
		exec('bash ' . escapeshellarg(dirname(__DIR__, 2) . '/scripts/lib/stack.sh') . ' stop '
			. escapeshellarg($this->env['STACK_DIR']));
	}

	/** rlock_status() as a php-fpm worker reads it (examples/seckill/public/rlock_status.php). */
	public function status(): array
	{
		[$code, $body] = seckill_get($this->cfg['url'], '/rlock_status.php');
		PHPUnit\Framework\Assert::assertSame(200, $code, "rlock_status.php:\n" . var_export($body, true) . $this->logs());
		return is_array($body) ? $body : json_decode((string) $body, true, 512, JSON_THROW_ON_ERROR);
	}

	/** The tail of what php-fpm, PHP and nginx logged, for failure messages. */
	public function logs(): string
	{
		$text = '';
		foreach (['php-fpm.log', 'php-error.log', 'nginx-error.log'] as $name) {
			$path = $this->env['STACK_DIR'] . "/$name";
			if (is_file($path)) {
				$lines = array_filter(file($path, FILE_IGNORE_NEW_LINES) ?: [], fn (string $l): bool => !str_contains($l, 'NOTICE'));
				$text .= "--- $name\n" . implode("\n", array_slice($lines, -15)) . "\n";
			}
		}
		return $text;
	}
}
