<?php
/*
 * The lock comparison of the seckill demo: the same sale through the same endpoint under
 * each lock of SECKILL_LOCKS, in rounds, on the stack that is running (one php-fpm worker
 * count); then the table of medians per worker count, issue 13's targets, and the chart's
 * data. Used by bin/seckill.php compare|table.
 */

declare(strict_types=1);

require_once __DIR__ . '/client.php';

/** What the comparison's table shows of a run: field => [header, printf format]. */
const SECKILL_COLUMNS = [
	'rps' => ['req/s', '%.0f'],
	'p50_ms' => ['p50 ms', '%.0f'],
	'p99_ms' => ['p99 ms', '%.0f'],
	'busy' => ['503s', '%d'],
	'oversold' => ['oversold', '%d'],
	'lock_cpu_us_per_req' => ['lock-Redis CPU us/req', '%.0f'],
	'fpm_cpu_us_per_req' => ['fpm CPU us/req', '%.0f'],
	'client_cmds_per_req' => ['lock-Redis cmds/req', '%.2f'],
];

/** How each lock is named in the table. */
const SECKILL_LOCK_TITLES = [
	'rlock' => 'rlock',
	'baton' => 'baton (floor, unsafe)',
	'floor' => 'owner-checked FIFO floor (unsafe)',
	'phpredis' => 'classic SET NX + usleep + EVAL',
	'symfony' => 'symfony/lock RedisStore',
	'laravel' => 'Laravel RedisLock block(3)',
	'symfony_rlock' => 'symfony/lock over RLockStore',
	'laravel_rlock' => 'Laravel over RLockLock block(3)',
	'none' => 'no lock',
];

/**
 * Sell under every lock of $kinds: first one run per lock watched with MONITOR (the
 * commands clients send; it also warms opcache, the persistent connections and the
 * script caches), then $rounds rounds of one run per lock, unwatched, the order of the
 * locks turned by one each round. $sale: stock, requests, concurrency, work_us, wait.
 * $say gets a line per run. Returns ['workers', 'watched' => [kind => run],
 * 'rounds' => [[kind => run]], 'failures' => [text]].
 */
function seckill_compare(array $cfg, array $kinds, int $rounds, array $sale, callable $say): array
{
	$out = ['workers' => $cfg['workers'], 'watched' => [], 'rounds' => [], 'failures' => []];
	$one = function (string $kind, string $sku, bool $monitor) use ($cfg, $sale, &$out): array {
		$r = seckill_run($cfg, ['sku' => $sku, 'lock' => $kind, 'monitor' => $monitor] + $sale);
		foreach (seckill_verdicts($r, false) as [$ok, $text]) {
			if (!$ok) {
				$out['failures'][] = "$kind ($sku): $text";
			}
		}
		if ($r['errors'] > 0) {
			$out['failures'][] = "$kind ($sku): {$r['errors']} transport errors";
		}
		return $r;
	};
	foreach ($kinds as $kind) {
		$r = $out['watched'][$kind] = $one($kind, "cmp-{$cfg['workers']}-$kind-watched", true);
		$say(sprintf('  %-32s watched: %5.2f lock-Redis commands per request from clients (%s)',
			SECKILL_LOCK_TITLES[$kind], $r['client_cmds_per_req'], seckill_cmds_text($r)));
	}
	for ($round = 0; $round < $rounds; $round++) {
		$order = array_merge(array_slice($kinds, $round % count($kinds)), array_slice($kinds, 0, $round % count($kinds)));
		foreach ($order as $kind) {
			$r = $out['rounds'][$round][$kind] = $one($kind, "cmp-{$cfg['workers']}-$kind-$round", false);
			$say(sprintf('  %-32s round %d: %5.0f req/s, p50 %4.0f ms, p99 %5.0f ms, %3d x 503, %4d oversold,'
				. ' lock-Redis CPU %4.0f us/req, fpm CPU %4s us/req',
				SECKILL_LOCK_TITLES[$kind], $round + 1, $r['rps'], $r['p50_ms'], $r['p99_ms'], $r['busy'],
				$r['oversold'], $r['lock_cpu_us_per_req'],
				$r['fpm_cpu_us_per_req'] === null ? '-' : sprintf('%.0f', $r['fpm_cpu_us_per_req'])));
		}
	}
	return $out;
}

/** "set 1.02, eval 1.00" : the commands clients sent per request in a watched run. */
function seckill_cmds_text(array $r): string
{
	$cmds = $r['client_cmds'] ?? [];
	arsort($cmds);
	return implode(', ', array_map(
		fn (string $cmd, int $n): string => sprintf('%s %.2f', $cmd, $n / max(1, $r['requests'])),
		array_keys($cmds), $cmds,
	)) ?: 'none';
}

/** The median over the rounds of $field of $kind; the watched run's for the client commands. */
function seckill_median(array $cmp, string $kind, string $field): ?float
{
	if ($field === 'client_cmds_per_req') {
		return $cmp['watched'][$kind][$field] ?? null;
	}
	$values = [];
	foreach ($cmp['rounds'] as $round) {
		if (isset($round[$kind][$field])) {
			$values[] = (float) $round[$kind][$field];
		}
	}
	return $values ? seckill_percentile($values, 50) : null;
}

/** The median over the rounds of $ratio(round), a number from one round's runs (null: none). */
function seckill_median_ratio(array $cmp, callable $ratio): ?float
{
	$values = array_values(array_filter(array_map($ratio, $cmp['rounds']), fn ($x) => $x !== null));
	return $values ? seckill_percentile($values, 50) : null;
}

/** What the table and the chart show of $field for $kind: the median; none for the lock server without a lock. */
function seckill_cell(array $cmp, string $kind, string $field): ?float
{
	if ($kind === 'none' && in_array($field, ['lock_cpu_us_per_req', 'client_cmds_per_req'], true)) {
		return null;
	}
	return seckill_median($cmp, $kind, $field);
}

/** The comparisons as a markdown table: one row per lock and worker count, medians of the rounds. */
function seckill_compare_table(array $cmps): string
{
	$head = array_merge(['lock', 'workers'], array_column(SECKILL_COLUMNS, 0));
	$md = '| ' . implode(' | ', $head) . " |\n|" . str_repeat('---|', count($head)) . "\n";
	foreach ($cmps as $cmp) {
		foreach (array_keys($cmp['watched']) as $kind) {
			$cells = [SECKILL_LOCK_TITLES[$kind], $cmp['workers']];
			foreach (SECKILL_COLUMNS as $field => [, $format]) {
				$x = seckill_cell($cmp, $kind, $field);
				$cells[] = $x === null ? '-' : sprintf($format, $x);
			}
			$md .= '| ' . implode(' | ', $cells) . " |\n";
		}
	}
	return $md;
}

/**
 * Issue 13's targets for the web endpoint, on one comparison (64 workers): rows of
 * [target, limit, measured, met]. Each ratio is taken within a round, then the median
 * over the rounds; the peers are phpredis, symfony and laravel. Then the framework
 * bridges' (issue 15): symfony_rlock's and laravel_rlock's req/s and p99 within 1.1x of
 * rlock's.
 */
function seckill_targets(array $cmp): array
{
	$peers = array_values(array_intersect(['phpredis', 'symfony', 'laravel'], array_keys($cmp['watched'])));
	$best = function (array $round, string $field, bool $highest) use ($peers): ?float {
		$xs = array_filter(array_map(fn ($p) => $round[$p][$field] ?? null, $peers), fn ($x) => $x !== null);
		return $xs ? ($highest ? max($xs) : min($xs)) : null;
	};
	$vs = fn (string $field, ?callable $other) => seckill_median_ratio($cmp, function (array $round) use ($field, $other): ?float {
		$a = $round['rlock'][$field] ?? null;
		$b = $other($round);
		return $a === null || !$b ? null : $a / $b;
	});
	// $kind's $field in a round, for $vs()
	$of = fn (string $kind, string $field) => fn (array $round): ?float => $round[$kind][$field] ?? null;
	$oversold = 0;
	foreach ($cmp['rounds'] as $round) {
		$oversold += $round['rlock']['oversold'] ?? 0;
	}
	$w = $cmp['workers'];
	$rows = [
		["req/s / baton's, $w workers", '>= 0.95', $vs('rps', $of('baton', 'rps')), 0.95, false],
		["req/s / best peer's, $w workers", '>= 1.5', $vs('rps', fn ($r) => $best($r, 'rps', true)), 1.5, false],
		["p99 / best peer's, $w workers", '<= 0.6', $vs('p99_ms', fn ($r) => $best($r, 'p99_ms', false)), 0.6, true],
		["lock-Redis CPU per request / baton's, $w workers", '<= 1.25',
			$vs('lock_cpu_us_per_req', $of('baton', 'lock_cpu_us_per_req')), 1.25, true],
		["fpm CPU per request / baton's, $w workers", '<= 1.1',
			$vs('fpm_cpu_us_per_req', $of('baton', 'fpm_cpu_us_per_req')), 1.1, true],
		["oversold with rlock, all rounds, $w workers", '= 0', (float) $oversold, 0.0, true],
	];
	if (isset($cmp['watched']['floor'])) {
		// the least an owner-checked FIFO lock costs (bench/lib/floor.php): what rlock's
		// guarantees past an owner check and a queue cost
		$rows[] = ["req/s / owner-checked floor's, $w workers", '>= 0.95', $vs('rps', $of('floor', 'rps')), 0.95, false];
		$rows[] = ["lock-Redis CPU per request / floor's, $w workers", '<= 1.1',
			$vs('lock_cpu_us_per_req', $of('floor', 'lock_cpu_us_per_req')), 1.1, true];
	}
	foreach (array_intersect(['symfony_rlock', 'laravel_rlock'], array_keys($cmp['watched'])) as $bridge) {
		$title = SECKILL_LOCK_TITLES[$bridge];
		// within 1.1x: rlock's req/s at most 1.1x the bridge's, the bridge's p99 at most 1.1x rlock's
		$rows[] = ["rlock's req/s / $title's, $w workers", '<= 1.1', $vs('rps', $of($bridge, 'rps')), 1.1, true];
		$rows[] = ["rlock's p99 / $title's, $w workers", '>= 0.91', $vs('p99_ms', $of($bridge, 'p99_ms')), 1 / 1.1, false];
	}
	return array_map(fn (array $t): array => [
		$t[0], $t[1],
		$t[2] === null ? '-' : sprintf($t[0] === $rows[5][0] ? '%d' : '%.2fx', $t[2]),
		$t[2] === null ? 'no result' : (($t[4] ? $t[2] <= $t[3] : $t[2] >= $t[3]) ? 'yes' : 'NO'),
	], $rows);
}

/** The chart's data: one line per lock, the medians at each worker count in turn. */
function seckill_chart_data(array $cmps): string
{
	$dat = '# lock';
	foreach ($cmps as $cmp) {
		foreach (SECKILL_COLUMNS as $field => $_) {
			$dat .= " {$field}@{$cmp['workers']}";
		}
	}
	$dat .= "\n";
	foreach (array_keys(reset($cmps)['watched']) as $kind) {
		$dat .= '"' . SECKILL_LOCK_TITLES[$kind] . '"';
		foreach ($cmps as $cmp) {
			foreach (SECKILL_COLUMNS as $field => $_) {
				$x = seckill_cell($cmp, $kind, $field);
				$dat .= ' ' . ($x === null ? '0' : sprintf('%.2f', $x));
			}
		}
		$dat .= "\n";
	}
	return $dat;
}
