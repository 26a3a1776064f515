<?php
/*
 * The seckill demo's command line, run against a stack that scripts/lib/stack.sh started
 * (it reads STACK_URL, STACK_LOCK_REDIS, STACK_SHOP_REDIS, STACK_WORKERS, ... from the
 * environment).
 *
 *   php seckill.php run [--sku=S] [--stock=100] [--requests=5000] [--concurrency=200]
 *                       [--lock=rlock|baton|floor|phpredis|symfony|laravel|symfony_rlock|laravel_rlock|none] [--persistent=1] [--wait=3000] [--work-us=0]
 *                       [--clicks=1] [--limit=0] [--title=T] [--json=FILE]
 *       sell and print the report; with the lock on, exit 1 unless exactly stock orders
 *       were made, none oversold, no lock left, and (persistent) no more lock connections
 *       than fpm worker processes
 *   php seckill.php death [--how=fatal,exception,exit,timeout,killed] [--api=sync]
 *       the request-death checks; exit 1 if one fails
 *   php seckill.php stats --sku=S
 *   php seckill.php summary TITLE=FILE.json ...
 *       the runs saved with --json side by side
 *   php seckill.php compare [--locks=rlock,baton,floor,phpredis,symfony,laravel,symfony_rlock,laravel_rlock,none] [--rounds=3]
 *                       [--stock=100] [--requests=3000] [--concurrency=200] [--work-us=1000]
 *                       [--wait=3000] [--json=FILE]
 *       the same sale under each lock (lib/compare.php), a line per run; exit 1 unless
 *       every locked run sold each item exactly once
 *   php seckill.php table [--goals] [--md=FILE] [--dat=FILE] FILE.json ...
 *       the comparisons saved by compare side by side (medians of the rounds); --goals adds
 *       the goals rlock is measured against on the one with the most workers; --dat writes
 *       the chart's data
 */

declare(strict_types=1);

require __DIR__ . '/../lib/compare.php';

$command = $argv[1] ?? '';
$opt = [];
$args = array_slice($argv, 2);
foreach ($command === 'summary' ? [] : $args as $arg) {
	if ($command === 'table' && !str_starts_with($arg, '--')) {
		$files[] = $arg;
		continue;
	}
	if (!preg_match('/^--([a-z-]+)(?:=(.*))?$/s', $arg, $m)) {
		fwrite(STDERR, "seckill: not an option: $arg\n");
		exit(2);
	}
	$opt[$m[1]] = $m[2] ?? true;
}
$cfg = seckill_cfg_from_env();

switch ($command) {
	case 'compare':
		$cmp = seckill_compare(
			$cfg,
			explode(',', $opt['locks'] ?? implode(',', SECKILL_LOCKS)),
			(int) ($opt['rounds'] ?? 3),
			[
				'stock' => (int) ($opt['stock'] ?? 100),
				'requests' => (int) ($opt['requests'] ?? 3000),
				'concurrency' => (int) ($opt['concurrency'] ?? 200),
				'work_us' => (int) ($opt['work-us'] ?? 1000),
				'wait' => (int) ($opt['wait'] ?? 3000),
			],
			function (string $line): void {
				echo $line, "\n";
			},
		);
		foreach ($cmp['failures'] as $failure) {
			echo "  FAIL $failure\n";
		}
		if (isset($opt['json'])) {
			file_put_contents($opt['json'], json_encode($cmp) . "\n");
		}
		exit($cmp['failures'] ? 1 : 0);

	case 'table':
		$cmps = array_map(fn (string $f): array => json_decode((string) file_get_contents($f), true), $files ?? []);
		if (!$cmps) {
			fwrite(STDERR, "seckill table: no comparison given\n");
			exit(2);
		}
		usort($cmps, fn (array $a, array $b): int => $a['workers'] <=> $b['workers']);
		$rounds = count(end($cmps)['rounds']);
		$md = sprintf("Medians of %d round%s; lock-Redis cmds/req: commands clients sent to the lock server"
			. " (MONITOR, one watched run per lock; commands run inside scripts not counted).\n\n",
			$rounds, $rounds === 1 ? '' : 's');
		$md .= seckill_compare_table($cmps);
		if (isset($opt['goals'])) {
			$md .= sprintf("\nGoals, %d workers; each ratio within a round, the median over the rounds:\n\n", end($cmps)['workers']);
			$md .= "| goal | limit | measured | met |\n|---|---|---|---|\n";
			foreach (seckill_targets(end($cmps)) as $row) {
				$md .= '| ' . implode(' | ', $row) . " |\n";
			}
		}
		echo $md;
		if (isset($opt['md'])) {
			file_put_contents($opt['md'], $md);
		}
		if (isset($opt['dat'])) {
			file_put_contents($opt['dat'], seckill_chart_data($cmps));
		}
		exit(0);

	case 'run':
		$r = seckill_run($cfg, [
			'sku' => $opt['sku'] ?? 'phone',
			'stock' => (int) ($opt['stock'] ?? 100),
			'requests' => (int) ($opt['requests'] ?? 5000),
			'concurrency' => (int) ($opt['concurrency'] ?? 200),
			'lock' => (string) ($opt['lock'] ?? 'rlock'),
			'persistent' => ($opt['persistent'] ?? '1') !== '0',
			'wait' => (int) ($opt['wait'] ?? 3000),
			'work_us' => (int) ($opt['work-us'] ?? 0),
			'monitor' => isset($opt['monitor']),
			'clicks' => (int) ($opt['clicks'] ?? 1),
			'limit' => (int) ($opt['limit'] ?? 0),
		]);
		echo seckill_report($opt['title'] ?? 'seckill', $r);
		$failed = 0;
		foreach (seckill_verdicts($r) as [$ok, $text]) {
			echo '  ', $ok ? 'PASS' : 'FAIL', "            $text\n";
			$failed += $ok ? 0 : 1;
		}
		if (isset($opt['json'])) {
			file_put_contents($opt['json'], json_encode($r) . "\n");
		}
		exit($failed ? 1 : 0);

	case 'death':
		$failed = 0;
		foreach (explode(',', $opt['how'] ?? 'fatal,exception,exit,timeout,killed') as $how) {
			foreach (explode(',', $opt['api'] ?? 'sync') as $api) {
				$d = seckill_death($cfg, $how, $api);
				echo seckill_death_line($d), "\n";
				$failed += seckill_death_ok($d) ? 0 : 1;
			}
		}
		exit($failed ? 1 : 0);

	case 'stats':
		$stats = seckill_stats(
			seckill_connect($cfg['shop_redis'], false),
			seckill_connect($cfg['lock_redis'], false),
			$opt['sku'] ?? 'phone',
		);
		echo json_encode($stats, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES), "\n";
		exit(0);

	case 'summary':
		$runs = [];
		foreach ($args as $arg) {
			$at = (int) strrpos($arg, '=');
			[$title, $file] = [substr($arg, 0, $at), substr($arg, $at + 1)];
			$runs[$title] = json_decode((string) file_get_contents($file), true);
		}
		echo seckill_summary($runs);
		exit(0);

	default:
		fwrite(STDERR, "usage: php seckill.php run|death|stats [options]\n");
		exit(2);
}
