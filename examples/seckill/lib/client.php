<?php
/*
 * The buyer's side of the seckill demo, shared by bin/seckill.php and the PHPUnit test:
 * a small concurrent HTTP/1.1 client (keep-alive, non-blocking sockets, no extension
 * needed), a sale run with its report, and the request-death checks.
 *
 * $cfg, everywhere: ['url' => nginx base URL, 'lock_redis' => DSN, 'shop_redis' => DSN,
 *                    'workers' => fpm workers, 'max_requests' => pm.max_requests,
 *                    'terminate' => request_terminate_timeout in s]
 */

declare(strict_types=1);

require_once __DIR__ . '/shop.php';
require_once __DIR__ . '/../../../bench/common.php';
require_once __DIR__ . '/../../../bench/monitor.php';

/** The stack's configuration from the environment that scripts/lib/stack.sh exports. */
function seckill_cfg_from_env(): array
{
	$env = fn (string $name, string $default = ''): string => (string) (getenv($name) ?: $default);
	return [
		'url' => $env('STACK_URL', 'http://127.0.0.1:8080'),
		'lock_redis' => $env('STACK_LOCK_REDIS', 'redis://127.0.0.1:6379'),
		'shop_redis' => $env('STACK_SHOP_REDIS', 'redis://127.0.0.1:6379'),
		'workers' => (int) $env('STACK_WORKERS', '16'),
		'max_requests' => (int) $env('STACK_MAX_REQUESTS', '0'),
		'terminate' => (int) $env('STACK_TERMINATE', '3'),
		'fpm_pid' => (int) $env('STACK_FPM_PID', '0'),
	];
}

/**
 * CPU time, in microseconds, of the php-fpm pool whose master is $master: the master's
 * own, its live workers', and that of the workers it has reaped (recycled by
 * pm.max_requests: the master's cutime + cstime). From /proc; null when unreadable.
 */
function seckill_fpm_cpu_us(int $master): ?float
{
	// utime stime cutime cstime: fields 14-17 of /proc/PID/stat, 12-15 after "comm)"
	$stat = function (string $file): ?array {
		$line = @file_get_contents($file);
		$at = $line === false ? false : strrpos($line, ')');
		return $at === false ? null : array_map('intval', explode(' ', substr($line, $at + 2)));
	};
	$own = $master > 0 ? $stat("/proc/$master/stat") : null;
	if ($own === null || count($own) < 15) {
		return null;
	}
	$ticks = $own[11] + $own[12] + $own[13] + $own[14];
	foreach (glob('/proc/[0-9]*/stat') ?: [] as $file) {
		$f = $stat($file);
		if ($f !== null && count($f) >= 13 && $f[1] === $master) {
			$ticks += $f[11] + $f[12];
		}
	}
	return $ticks * 1e6 / 100; // USER_HZ: 100 on Linux
}

/**
 * Parse one HTTP response at the start of $buf.
 *
 * @return array{0: int, 1: array<string,string>, 2: string, 3: int}|null status, headers,
 *         body, bytes used; null while incomplete
 */
function seckill_http_parse(string $buf, bool $eof = false): ?array
{
	$end = strpos($buf, "\r\n\r\n");
	if ($end === false) {
		return null;
	}
	$lines = explode("\r\n", substr($buf, 0, $end));
	$status = (int) (explode(' ', $lines[0], 3)[1] ?? 0);
	$headers = [];
	foreach (array_slice($lines, 1) as $line) {
		[$name, $value] = array_pad(explode(':', $line, 2), 2, '');
		$headers[strtolower(trim($name))] = trim($value);
	}
	$pos = $end + 4;
	if (isset($headers['content-length'])) {
		$len = (int) $headers['content-length'];
		return strlen($buf) < $pos + $len ? null : [$status, $headers, substr($buf, $pos, $len), $pos + $len];
	}
	if (strtolower($headers['transfer-encoding'] ?? '') === 'chunked') {
		$body = '';
		for (;;) {
			$eol = strpos($buf, "\r\n", $pos);
			if ($eol === false) {
				return null;
			}
			$size = hexdec(trim(explode(';', substr($buf, $pos, $eol - $pos))[0]));
			$pos = $eol + 2;
			if ($size === 0) {
				$trailerEnd = strpos($buf, "\r\n", $pos); // no trailers are expected
				return $trailerEnd === false ? null : [$status, $headers, $body, $trailerEnd + 2];
			}
			if (strlen($buf) < $pos + $size + 2) {
				return null;
			}
			$body .= substr($buf, $pos, (int) $size);
			$pos += (int) $size + 2;
		}
	}
	// Neither: the body runs to the end of the connection.
	return $eof ? [$status, $headers, substr($buf, $pos), strlen($buf)] : null;
}

/**
 * Send $total GETs to $baseUrl, $concurrency at a time over keep-alive connections.
 * $pathFor(int $i) gives the path of request $i.
 *
 * @return array{seconds: float, latencies_ms: list<float>, http: array<int,int>,
 *               status: array<string,int>, errors: int, responses: list<array>}
 */
function seckill_load(string $baseUrl, int $total, int $concurrency, callable $pathFor, float $timeout = 120.0): array
{
	$url = parse_url($baseUrl);
	$host = $url['host'];
	$port = $url['port'] ?? 80;
	$open = function () use ($host, $port) {
		$sock = @stream_socket_client("tcp://$host:$port", $errno, $errstr, 5.0);
		if ($sock === false) {
			throw new RuntimeException("connect $host:$port: $errstr");
		}
		stream_set_blocking($sock, false);
		return $sock;
	};
	$result = ['seconds' => 0.0, 'latencies_ms' => [], 'http' => [], 'status' => [], 'errors' => 0, 'responses' => []];
	$next = 0;
	$done = 0;
	$conns = [];
	$assign = function (array &$c) use (&$next, $total, $pathFor, $host, $port): bool {
		if ($next >= $total) {
			return false;
		}
		$c['i'] = $next++;
		$c['path'] = $pathFor($c['i']);
		$c['out'] = "GET {$c['path']} HTTP/1.1\r\nHost: $host:$port\r\nUser-Agent: seckill-load\r\n\r\n";
		$c['in'] = '';
		$c['t0'] = hrtime(true);
		$c['retried'] = false;
		return true;
	};
	$record = function (array $c, int $status, string $body) use (&$result, &$done): void {
		$result['latencies_ms'][] = (hrtime(true) - $c['t0']) / 1e6;
		$result['http'][$status] = ($result['http'][$status] ?? 0) + 1;
		$json = json_decode($body, true);
		$name = is_array($json) && isset($json['status']) ? (string) $json['status'] : "http_$status";
		$result['status'][$name] = ($result['status'][$name] ?? 0) + 1;
		$result['responses'][] = ['i' => $c['i'], 'http' => $status, 'body' => $json ?? $body];
		$done++;
	};

	$start = hrtime(true);
	for ($k = 0; $k < min($concurrency, $total); $k++) {
		$c = ['sock' => $open(), 'served' => 0];
		$assign($c);
		$conns[] = $c;
	}
	$deadline = microtime(true) + $timeout;
	while ($conns && $done < $total) {
		$read = $write = [];
		foreach ($conns as $id => $c) {
			$read[$id] = $c['sock'];
			if ($c['out'] !== '') {
				$write[$id] = $c['sock'];
			}
		}
		$except = null;
		if (@stream_select($read, $write, $except, 1, 0) === false) {
			throw new RuntimeException('stream_select failed');
		}
		if (microtime(true) > $deadline) {
			$result['errors'] += $total - $done;
			break;
		}
		foreach ($write as $id => $sock) {
			$n = @fwrite($sock, $conns[$id]['out']);
			if ($n !== false) {
				$conns[$id]['out'] = (string) substr($conns[$id]['out'], $n);
			}
		}
		foreach ($read as $id => $sock) {
			$c = &$conns[$id];
			$chunk = @fread($sock, 65536);
			$eof = ($chunk === '' || $chunk === false) && feof($sock);
			$c['in'] .= (string) $chunk;
			while (($resp = seckill_http_parse($c['in'], $eof)) !== null) {
				[$status, $headers, $body, $used] = $resp;
				$record($c, $status, $body);
				$c['served']++;
				$c['in'] = (string) substr($c['in'], $used);
				$close = $eof || strtolower($headers['connection'] ?? '') === 'close';
				if ($close) {
					fclose($c['sock']);
					$c['sock'] = $open();
					$c['served'] = 0;
					$eof = false;
				}
				if (!$assign($c)) {
					fclose($c['sock']);
					unset($conns[$id]);
					continue 2;
				}
			}
			if ($eof) {
				// The server closed the connection without answering: a keep-alive race gets
				// one retry on a new connection, anything else counts as an error.
				fclose($c['sock']);
				$c['sock'] = $open();
				$c['served'] = 0;
				if ($c['in'] === '' && !$c['retried']) {
					$c['out'] = "GET {$c['path']} HTTP/1.1\r\nHost: $host:$port\r\nUser-Agent: seckill-load\r\n\r\n";
					$c['retried'] = true;
				} else {
					$result['errors']++;
					$done++;
					if (!$assign($c)) {
						fclose($c['sock']);
						unset($conns[$id]);
					}
				}
			}
			unset($c);
		}
	}
	foreach ($conns as $c) {
		fclose($c['sock']);
	}
	$result['seconds'] = (hrtime(true) - $start) / 1e9;
	return $result;
}

/** One GET, waiting for the whole answer: [status, body, ms, headers]. */
function seckill_get(string $baseUrl, string $path, float $timeout = 60.0): array
{
	$t0 = hrtime(true);
	$load = seckill_load($baseUrl, 1, 1, fn (): string => $path, $timeout);
	$ms = (hrtime(true) - $t0) / 1e6;
	if (!$load['responses']) {
		return [0, null, $ms];
	}
	$r = $load['responses'][0];
	return [$r['http'], $r['body'], $ms];
}

/** The $p-th percentile (0..100) of $values. */
function seckill_percentile(array $values, float $p): float
{
	if (!$values) {
		return 0.0;
	}
	sort($values);
	$idx = (int) ceil($p / 100 * count($values)) - 1;
	return (float) $values[max(0, min(count($values) - 1, $idx))];
}

/**
 * Sell $stock items of $sku to $requests concurrent buyers, each a different user.
 *
 * $opt: sku, stock, requests, concurrency, lock (true: rlock, false: none, or one of
 * SECKILL_LOCKS), persistent (bool), wait (ms), work_us, monitor (count the commands
 * clients send to the lock server with MONITOR, apart from those scripts run; MONITOR
 * costs the server CPU, so its CPU figures are the watched run's), clicks (each buyer sends
 * this many requests one after another: the impatient buyer), limit (a rate limit in front
 * of the lock: attempts per second per buyer; 0: none). Returns the figures of the report.
 */
function seckill_run(array $cfg, array $opt): array
{
	$opt += ['concurrency' => 200, 'lock' => true, 'persistent' => true, 'wait' => 3000, 'work_us' => 0,
		'clicks' => 1, 'limit' => 0];
	$clicks = max(1, (int) $opt['clicks']);
	$kind = is_bool($opt['lock']) ? ($opt['lock'] ? 'rlock' : 'none') : seckill_lock_kind((string) $opt['lock']);
	if ($kind === null) {
		throw new InvalidArgumentException("unknown lock: {$opt['lock']} (one of " . implode(', ', SECKILL_LOCKS) . ')');
	}
	$opt['lock'] = $kind !== 'none';
	$sku = $opt['sku'];
	$shop = seckill_connect($cfg['shop_redis'], false);
	seckill_reset($shop, $sku, $opt['stock']);
	seckill_lock_reset($cfg['lock_redis'], $kind, $sku);

	// What the lock server and the fpm pool spend on the sale: INFO commandstats and cpu
	// of the lock server (the INFO calls themselves left out), /proc of the workers.
	$admin = seckill_connect($cfg['lock_redis'], false);
	$usageBefore = bench_server_usage($admin);
	$fpmBefore = seckill_fpm_cpu_us($cfg['fpm_pid'] ?? 0);
	// Each look at the lock server is a fresh connection, counted by the server too.
	$lockServer = fn (): array => seckill_server_info(seckill_connect($cfg['lock_redis'], false));
	$before = $lockServer();
	$watch = !empty($opt['monitor']) ? seckill_monitor_start($cfg['lock_redis']) : null;

	$run = bin2hex(random_bytes(4));
	$query = http_build_query([
		'lock' => $kind,
		'persistent' => $opt['persistent'] ? 1 : 0,
		'wait' => $opt['wait'],
		'work_us' => $opt['work_us'],
		'limit' => $opt['limit'],
	]);
	$load = seckill_load(
		$cfg['url'],
		$opt['requests'],
		$opt['concurrency'],
		fn (int $i): string => "/buy.php?sku=$sku&user=u$run-" . intdiv($i, $clicks) . "&$query",
	);

	$seen = $watch === null ? null : seckill_monitor_stop($watch, $admin);
	$after = $lockServer();
	$fpmAfter = seckill_fpm_cpu_us($cfg['fpm_pid'] ?? 0);
	$usageAfter = bench_server_usage($admin);
	$calls = bench_usage_delta($usageBefore, $usageAfter, 'cmd_calls');
	unset($calls['info']);
	$lock = seckill_connect($cfg['lock_redis'], false);
	$stats = seckill_stats($shop, $lock, $sku);
	$lat = $load['latencies_ms'];
	$n = max(1, $opt['requests']);
	$okOrders = array_filter($load['responses'], fn (array $r): bool => is_array($r['body']) && ($r['body']['status'] ?? '') === 'ok');
	return $opt + [
		'kind' => $kind,
		'orders' => $stats['orders'],
		'ok_responses' => count($okOrders),
		'stock_left' => $stats['stock'],
		'oversold' => $stats['oversold'],
		'buyers' => $stats['buyers'],
		'lock_left_behind' => seckill_lock_held($lock, $kind, $sku),
		'status' => $load['status'],
		'http' => $load['http'],
		'errors' => $load['errors'],
		'seconds' => $load['seconds'],
		'rps' => $load['seconds'] > 0 ? count($lat) / $load['seconds'] : 0.0,
		'p50_ms' => seckill_percentile($lat, 50),
		'p99_ms' => seckill_percentile($lat, 99),
		'max_ms' => seckill_percentile($lat, 100),
		'busy' => $load['http'][503] ?? 0,
		'shed' => $load['http'][429] ?? 0,
		'lock_cpu_us_per_req' => ($usageAfter['cpu_usec'] - $usageBefore['cpu_usec']) / $n,
		'lock_cmds_per_req' => array_sum($calls) / $n,
		'lock_cmds' => $calls,
		'client_cmds_per_req' => $seen === null ? null : array_sum($seen['client']) / $n,
		'client_cmds' => $seen['client'] ?? null,
		'fpm_cpu_us_per_req' => $fpmBefore === null || $fpmAfter === null ? null : ($fpmAfter - $fpmBefore) / $n,
		// minus ours: the connection that read $after (and MONITOR's); $admin is open throughout
		'lock_connections' => $after['total_connections_received'] - $before['total_connections_received'] - 1
			- ($watch === null ? 0 : 1),
		'lock_clients_before' => $before['connected_clients'] - 2,
		'lock_clients_now' => $after['connected_clients'] - 2,
		'worker_processes' => $stats['workers'],
		'workers' => $cfg['workers'],
		'max_requests' => $cfg['max_requests'],
	];
}

/**
 * MONITOR on the lock server at $dsn, in a child process (bench/monitor.php), until
 * seckill_monitor_stop(): what it needs to stop it.
 */
function seckill_monitor_start(string $dsn): array
{
	$url = parse_url($dsn);
	$file = tempnam(sys_get_temp_dir(), 'seckill-monitor');
	[$signal, $child] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
	$pid = pcntl_fork();
	if ($pid === -1) {
		throw new RuntimeException('fork failed');
	}
	if ($pid === 0) {
		fclose($signal);
		try {
			bench_monitor(['host' => $url['host']], (int) $url['port'], $file, $child);
		} catch (Throwable $e) {
			fwrite(STDERR, 'monitor: ' . $e->getMessage() . "\n");
			exit(1);
		}
		exit(0);
	}
	fclose($child);
	if (fread($signal, 1) !== 'm') {
		pcntl_waitpid($pid, $status);
		throw new RuntimeException('MONITOR did not start');
	}
	return ['pid' => $pid, 'file' => $file, 'signal' => $signal];
}

/** Stops the MONITOR of seckill_monitor_start() (ECHO of the stop marker on $admin): ['client' => [cmd => n], 'lua' => ...]. */
function seckill_monitor_stop(array $watch, Redis $admin): array
{
	$admin->echo(BENCH_MONITOR_STOP);
	pcntl_waitpid($watch['pid'], $status);
	$seen = json_decode((string) @file_get_contents($watch['file']), true);
	@unlink($watch['file']);
	fclose($watch['signal']);
	if (!is_array($seen)) {
		throw new RuntimeException('MONITOR saw nothing');
	}
	unset($seen['client']['echo']); // the stop marker
	return $seen + ['client' => [], 'lua' => []];
}

/** The report of one seckill_run(), as lines of text. */
function seckill_report(string $title, array $r): string
{
	$status = $r['status'];
	ksort($status);
	$statusText = implode(', ', array_map(fn ($k, $v) => "$v $k", array_keys($status), $status));
	$lines = [
		"== $title ==",
		sprintf('  %d buyers (%d at a time) for %d items of "%s"; lock %s%s',
			$r['requests'], $r['concurrency'], $r['stock'], $r['sku'],
			$r['lock'] ? ($r['kind'] ?? 'rlock') : 'OFF', $r['lock'] ? ', persistent ' . ($r['persistent'] ? 'on' : 'off') : ''),
		sprintf('  orders          %d', $r['orders']),
		sprintf('  stock left      %d', $r['stock_left']),
		sprintf('  oversold        %d%s', $r['oversold'], $r['oversold'] > 0 ? '   <-- more orders than items' : ''),
		sprintf('  responses       %s%s', $statusText, $r['errors'] ? ", {$r['errors']} transport errors" : ''),
		sprintf('  throughput      %.0f requests/s (%.2f s)', $r['rps'], $r['seconds']),
		sprintf('  latency         p50 %.1f ms, p99 %.1f ms, max %.1f ms', $r['p50_ms'], $r['p99_ms'], $r['max_ms']),
	];
	if (($r['limit'] ?? 0) > 0) {
		$lines[] = sprintf('  rate limit      %d per second per buyer (%d clicks each): %d of %d requests shed (429)'
			. ' before the lock, %d reached it', $r['limit'], $r['clicks'], $r['shed'], $r['requests'],
			$r['requests'] - $r['shed']);
	}
	if ($r['lock']) {
		$lines[] = sprintf(
			'  lock Redis      %d connections opened for %d requests; %d fpm worker processes served them'
			. ' (%d at a time%s)',
			$r['lock_connections'], $r['requests'], $r['worker_processes'], $r['workers'],
			$r['max_requests'] ? ", each recycled after {$r['max_requests']} requests" : '',
		);
		$lines[] = sprintf('                  %d connections still open after the run', $r['lock_clients_now']);
		$lines[] = sprintf('  lock left       %s', $r['lock_left_behind'] ? 'YES (key still exists)' : 'none');
	} else {
		$lines[] = '  lock Redis      not used';
	}
	return implode("\n", $lines) . "\n";
}

/**
 * A request takes the lock of a fresh SKU and dies while holding it ($how: see
 * public/die.php). Then: does the lock key still exist, for how long, and how long does the
 * next buyer wait?
 */
function seckill_death(array $cfg, string $how, string $api = 'sync'): array
{
	$sku = "death-$how-$api-" . bin2hex(random_bytes(3));
	$key = seckill_lock_key($sku);
	$shop = seckill_connect($cfg['shop_redis'], false);
	$lock = seckill_connect($cfg['lock_redis'], false);
	seckill_reset($shop, $sku, 1);

	[$status, $body, $ms] = seckill_get($cfg['url'], "/die.php?sku=$sku&how=$how&api=$api");
	$held = (bool) $lock->exists($key);
	$pttl = (int) $lock->pttl($key);

	// The next buyer queues for up to twice the TTL.
	$wait = 2 * SECKILL_LOCK_TTL_MS;
	[$buyStatus, $buyBody, $buyMs] = seckill_get($cfg['url'], "/buy.php?sku=$sku&user=next&wait=$wait");
	return [
		'how' => $how,
		'api' => $api,
		'http' => $status,
		'request_ms' => $ms,
		'left_behind' => $held,
		'pttl_ms' => $held ? $pttl : null,
		'next_status' => is_array($buyBody) ? ($buyBody['status'] ?? "http_$buyStatus") : "http_$buyStatus",
		'next_wait_ms' => $buyMs,
		'held_after' => (bool) $lock->exists($key),
		// PHP ran its request shutdown for every death but a killed worker
		'expect_released' => $how !== 'killed',
	];
}

/** Whether a death check came out as rlock promises. */
function seckill_death_ok(array $d): bool
{
	if ($d['next_status'] !== 'ok' || $d['held_after']) {
		return false;
	}
	if ($d['expect_released']) {
		return !$d['left_behind'];
	}
	// Killed: whatever it left must expire within the TTL.
	return !$d['left_behind'] || ($d['pttl_ms'] <= SECKILL_LOCK_TTL_MS && $d['next_wait_ms'] <= SECKILL_LOCK_TTL_MS + 1000);
}

/** One line about a death check. */
function seckill_death_line(array $d): string
{
	$what = [
		'fatal' => 'fatal error (memory limit)',
		'exception' => 'uncaught exception',
		'exit' => 'exit()',
		'timeout' => 'max_execution_time',
		'killed' => 'killed by request_terminate_timeout',
	][$d['how']] ?? $d['how'];
	$left = $d['left_behind']
		? sprintf('lock left behind, expires in %d ms', $d['pttl_ms'])
		: 'lock released at once';
	$late = $d['left_behind'] ? sprintf(' (lease end + %.0f ms)', $d['next_wait_ms'] - $d['pttl_ms']) : '';
	return sprintf(
		'  %s  %-36s %-4s HTTP %d after %4.0f ms; %s; next buyer: %s after %.0f ms%s',
		seckill_death_ok($d) ? 'PASS' : 'FAIL', $what, $d['api'], $d['http'], $d['request_ms'], $left,
		$d['next_status'], $d['next_wait_ms'], $late,
	);
}

/**
 * The verdicts on a sale run: a list of [ok, text]. $exact: the lock was on, so every item
 * must be sold exactly once; with persistent connections the lock server must see no more
 * connections than fpm worker processes served the run ($connections: the lock server
 * serves this lock alone, not the others of a comparison too).
 */
function seckill_verdicts(array $r, bool $connections = true): array
{
	if (!$r['lock']) {
		return [[true, sprintf('without the lock %d items were sold %d times', $r['stock'], $r['orders'])]];
	}
	$v = [[
		$r['orders'] === $r['stock'] && $r['oversold'] === 0 && $r['ok_responses'] === $r['stock'],
		sprintf('%d items, %d orders, %d oversold', $r['stock'], $r['orders'], $r['oversold']),
	]];
	$v[] = [!$r['lock_left_behind'], 'no lock left behind'];
	if ($r['persistent'] && $connections) {
		$v[] = [
			$r['lock_connections'] <= $r['worker_processes'] && $r['lock_clients_now'] <= $r['workers'],
			sprintf(
				'persistent: %d lock connections <= %d worker processes; %d open <= %d workers',
				$r['lock_connections'], $r['worker_processes'], $r['lock_clients_now'], $r['workers'],
			),
		];
	}
	return $v;
}

/** A side-by-side table of several runs: [title => run]. */
function seckill_summary(array $runs): string
{
	$out = sprintf("  %-26s %7s %6s %9s %8s %7s %7s %12s %10s\n",
		'', 'orders', 'stock', 'oversold', 'req/s', 'p50 ms', 'p99 ms', 'lock conns', 'fpm procs');
	foreach ($runs as $title => $r) {
		$out .= sprintf("  %-26s %7d %6d %9d %8.0f %7.1f %7.1f %12s %10d\n",
			$title, $r['orders'], $r['stock_left'], $r['oversold'], $r['rps'], $r['p50_ms'], $r['p99_ms'],
			$r['lock'] ? (string) $r['lock_connections'] : '-', $r['worker_processes']);
	}
	return $out;
}
