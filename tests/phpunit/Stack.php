<?php
/*
 * The seckill stack of scripts/lib/stack.sh (two Redis servers, php-fpm with rlock loaded,
 * nginx) for the scenarios that drive it through HTTP: SeckillTest, StatusPageTest.
 */

declare(strict_types=1);

final class Stack
{
	/**
	 * Start a stack with $settings (STACK_WORKERS and the like): its KEY=VALUE lines
	 * (STACK_DIR, STACK_URL, ...). Skips the test when nginx, php-fpm, redis-server or
	 * phpredis (the seckill client's) is missing; fails when the extension is not built.
	 *
	 * @param array<string,string> $settings
	 * @return array<string,string>
	 */
	public static function start(array $settings): array
	{
		$repo = dirname(__DIR__, 2);
		$fpm = '/usr/sbin/php-fpm' . PHP_MAJOR_VERSION . '.' . PHP_MINOR_VERSION;
		foreach (['/usr/sbin/nginx', $fpm, '/usr/bin/redis-server'] as $bin) {
			if (!is_executable($bin)) {
				PHPUnit\Framework\TestCase::markTestSkipped("$bin is not installed");
			}
		}
		if (!extension_loaded('redis')) {
			PHPUnit\Framework\TestCase::markTestSkipped('phpredis is not loaded in the CLI (php' . PHP_MAJOR_VERSION . '.' . PHP_MINOR_VERSION . '-redis)');
		}
		$so = getenv('RLOCK_SO') ?: getenv('RLOCK_EXT') ?: "$repo/modules/rlock.so";
		if (!is_file($so)) {
			PHPUnit\Framework\TestCase::fail("$so not found: build the extension first (phpize && ./configure && make)");
		}
		$proc = proc_open(
			['bash', "$repo/scripts/lib/stack.sh", 'start'],
			[0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']],
			$pipes,
			$repo,
			['RLOCK_SO' => $so] + $settings + getenv(),
		);
		$out = stream_get_contents($pipes[1]);
		$err = stream_get_contents($pipes[2]);
		$status = proc_close($proc);
		$stack = [];
		foreach (explode("\n", trim((string) $out)) as $line) {
			if (str_contains($line, '=')) {
				[$k, $v] = explode('=', $line, 2);
				$stack[$k] = $v;
			}
		}
		if ($status !== 0 || !isset($stack['STACK_URL'])) {
			PHPUnit\Framework\TestCase::fail("the stack did not start:\n$out\n$err");
		}
		return $stack;
	}

	/** Stop the stack of $stack (start()'s lines), if it runs. */
	public static function stop(array $stack): void
	{
		if (isset($stack['STACK_DIR'])) {
			exec('bash ' . escapeshellarg(dirname(__DIR__, 2) . '/scripts/lib/stack.sh')
				. ' stop ' . escapeshellarg($stack['STACK_DIR']));
		}
	}

	/** What php-fpm, PHP and nginx logged, for failure messages. */
	public static function logs(array $stack): string
	{
		$dir = $stack['STACK_DIR'] ?? '';
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
}
