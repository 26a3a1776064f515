<?php
/*
 * Headless Chromium for the status page's tests (StatusPageTest, StatusPageStaleTest).
 */

declare(strict_types=1);

final class Chromium
{
	public const BINARY = '/usr/bin/chromium';

	public static function skipUnlessInstalled(): void
	{
		if (!is_executable(self::BINARY)) {
			PHPUnit\Framework\Assert::markTestSkipped(self::BINARY . ' is not installed (apt-get install chromium)');
		}
	}

	/**
	 * Chromium, headless, on a profile of its own, with $args (--dump-dom, --screenshot=...)
	 * on $url: what it printed. JS runs for $budgetMs of virtual time: each poll of the page
	 * waits for its real reply, the second between polls passes at once.
	 *
	 * @param list<string> $args
	 */
	public static function run(array $args, string $url, int $budgetMs): string
	{
		$profile = sys_get_temp_dir() . '/rlock-chromium-' . getmypid() . '-' . bin2hex(random_bytes(4));
		mkdir($profile);
		$proc = proc_open(
			array_merge([self::BINARY, '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
				'--disable-background-networking', '--disable-component-update', '--disable-sync', '--hide-scrollbars',
				"--user-data-dir=$profile", '--window-size=1280,900', "--virtual-time-budget=$budgetMs"], $args, [$url]),
			[0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['file', "$profile.log", 'w']],
			$pipes,
		);
		$out = (string) stream_get_contents($pipes[1]);
		$status = proc_close($proc);
		$log = (string) @file_get_contents("$profile.log");
		exec('rm -rf ' . escapeshellarg($profile) . ' ' . escapeshellarg("$profile.log"));
		PHPUnit\Framework\Assert::assertSame(0, $status, "chromium failed:\n" . substr($log, -2000));
		return $out;
	}
}
