<?php
/*
 * The shop behind the seckill demo: one SKU on sale, its stock, its orders.
 *
 * The sale is written the way real code often is: read the stock, check it, check the
 * buyer, create the order, write the new stock back, one Redis call at a time. Between the
 * read and the write another request can do the same; only a lock around the whole
 * sequence keeps two buyers from taking the last item. See public/buy.php.
 *
 * Shop data (stock, orders) lives on one Redis (SECKILL_SHOP_REDIS), the locks on another
 * (SECKILL_LOCK_REDIS), so the lock server's INFO counts rlock's connections alone.
 */

declare(strict_types=1);

/** rlock's key prefix, given explicitly so that tools can name the key without the extension. */
const SECKILL_LOCK_PREFIX = 'rlock:';

/** The lock's lease: a buyer whose request dies without PHP running its shutdown waits at most this. */
const SECKILL_LOCK_TTL_MS = 5000;

/**
 * The locks buy.php can sell with (?lock=KIND): rlock, none, and the others the demo
 * compares it with, each the adapter of the same name in bench/lib/ (one copy for the
 * bench and the demo): baton (the floor of a hand-over lock, unsafe), phpredis (the
 * classic SET NX PX + usleep(5000) + EVAL), symfony (symfony/lock 5.4, acquire(true)),
 * laravel (Laravel 8's RedisLock, block()), and the same framework code over rlock's
 * bridge: symfony_rlock (LockFactory over RLock\Bridge\Symfony\RLockStore), laravel_rlock
 * (RLock\Bridge\Laravel\RLockStore's RLockLock, block()).
 */
const SECKILL_LOCKS = ['rlock', 'baton', 'floor', 'phpredis', 'symfony', 'laravel', 'symfony_rlock', 'laravel_rlock', 'none'];

/** A ?lock= value as one of SECKILL_LOCKS: '1' (and friends) is rlock, '0' none; null if unknown. */
function seckill_lock_kind(string $value): ?string
{
	$value = strtolower($value);
	return match (true) {
		in_array($value, ['1', 'true', 'on', 'yes'], true) => 'rlock',
		in_array($value, ['0', 'false', 'off', 'no'], true) => 'none',
		in_array($value, SECKILL_LOCKS, true) => $value,
		default => null,
	};
}

/** The key of $sku's lock for the peers (rlock's is seckill_lock_key(), with rlock's prefix). */
function seckill_peer_key(string $sku): string
{
	return "seckill:$sku";
}

/** The settings bench/lib/$kind.php takes, for the lock server at $dsn. */
function seckill_peer_cfg(string $dsn, int $waitMs, bool $persistent): array
{
	require_once __DIR__ . '/../../../bench/common.php';
	$url = parse_url($dsn);
	return [
		'host' => $url['host'] ?? '127.0.0.1',
		'port' => $url['port'] ?? 6379,
		'ttl_ms' => SECKILL_LOCK_TTL_MS,
		'wait_ms' => $waitMs,
		'persistent' => $persistent,
	];
}

/** [lock(): bool, unlock(): bool] of $sku through the peer $kind (see SECKILL_LOCKS). */
function seckill_peer_lock(string $kind, string $sku, int $waitMs, bool $persistent): array
{
	$cfg = seckill_peer_cfg(seckill_dsn('lock'), $waitMs, $persistent);
	return bench_adapter($kind)($cfg)(seckill_peer_key($sku));
}

/** Set up the lock of $sku for $kind before a sale (the baton's one token); $dsn: the lock server. */
function seckill_lock_reset(string $dsn, string $kind, string $sku): void
{
	if ($kind !== 'rlock' && $kind !== 'none') {
		bench_prepare($kind, seckill_peer_cfg($dsn, 0, false), seckill_peer_key($sku));
	}
}

/** Whether a lock of $sku through $kind is still held (the baton: not back in its list). */
function seckill_lock_held(Redis $lock, string $kind, string $sku): bool
{
	return match ($kind) {
		'none' => false,
		'rlock' => (bool) $lock->exists(seckill_lock_key($sku)),
		'baton' => (int) $lock->lLen(seckill_peer_key($sku)) !== 1,
		default => (bool) $lock->exists(seckill_peer_key($sku)),
	};
}

/** The Redis DSN for 'lock' or 'shop', from the environment (php-fpm passes it with env[...]). */
function seckill_dsn(string $which): string
{
	$dsn = getenv($which === 'lock' ? 'SECKILL_LOCK_REDIS' : 'SECKILL_SHOP_REDIS');
	return is_string($dsn) && $dsn !== '' ? $dsn : 'redis://127.0.0.1:6379';
}

/** A phpredis connection to a redis://host:port[/db] DSN. */
function seckill_connect(string $dsn, bool $persistent = true): Redis
{
	$url = parse_url($dsn);
	if ($url === false || !isset($url['host'])) {
		throw new InvalidArgumentException("bad Redis DSN: $dsn");
	}
	$redis = new Redis();
	if ($persistent) {
		$redis->pconnect($url['host'], $url['port'] ?? 6379, 1.0);
	} else {
		$redis->connect($url['host'], $url['port'] ?? 6379, 1.0);
	}
	$redis->setOption(Redis::OPT_READ_TIMEOUT, 5.0);
	$db = (int) ltrim($url['path'] ?? '', '/');
	if ($db !== 0) {
		$redis->select($db);
	}
	return $redis;
}

function seckill_key(string $sku, string $what): string
{
	return "shop:$sku:$what";
}

/** The name of the lock key of $sku, prefix included, as RLock::key() returns it. */
function seckill_lock_key(string $sku): string
{
	return SECKILL_LOCK_PREFIX . "seckill:$sku";
}

/** The RLock options the shop uses. */
function seckill_lock_options(int $waitMs, bool $persistent): array
{
	return [
		'server' => seckill_dsn('lock'),
		'prefix' => SECKILL_LOCK_PREFIX,
		'ttl' => SECKILL_LOCK_TTL_MS,
		'wait' => $waitMs,
		'persistent' => $persistent,
	];
}

/** The per-buyer rate limit's options: on the lock server, its connection shared. */
function seckill_rate_options(): array
{
	return ['server' => seckill_dsn('lock'), 'prefix' => SECKILL_LOCK_PREFIX];
}

/** Put $stock items of $sku on sale, forgetting every earlier order of it. */
function seckill_reset(Redis $shop, string $sku, int $stock): void
{
	$shop->del(array_map(
		fn (string $what): string => seckill_key($sku, $what),
		['stock', 'initial', 'orders', 'buyers', 'seq', 'workers'],
	));
	$shop->mSet([seckill_key($sku, 'stock') => $stock, seckill_key($sku, 'initial') => $stock]);
}

/**
 * Sell one item of $sku to $user: the read-check-write that must not interleave.
 *
 * @return array{status: string, order?: int, stock_left?: int}
 */
function seckill_sell(Redis $shop, string $sku, string $user, int $workUs = 0): array
{
	$stock = $shop->get(seckill_key($sku, 'stock'));
	if ($stock === false) {
		return ['status' => 'unknown_sku'];
	}
	$stock = (int) $stock;
	if ($stock <= 0) {
		return ['status' => 'sold_out'];
	}
	if ($shop->sIsMember(seckill_key($sku, 'buyers'), $user)) {
		return ['status' => 'already_bought'];
	}
	if ($workUs > 0) {
		usleep($workUs); // a payment pre-check, a fraud score: the window grows with real work
	}
	$order = (int) $shop->incr(seckill_key($sku, 'seq'));
	$shop->hSet(seckill_key($sku, 'orders'), (string) $order, json_encode([
		'user' => $user,
		'pid' => getmypid(),
		'at' => microtime(true),
	]));
	$shop->sAdd(seckill_key($sku, 'buyers'), $user);
	$shop->set(seckill_key($sku, 'stock'), $stock - 1);
	return ['status' => 'ok', 'order' => $order, 'stock_left' => $stock - 1];
}

/** Remember which fpm worker process served a request of this sale. */
function seckill_note_worker(Redis $shop, string $sku): void
{
	$shop->sAdd(seckill_key($sku, 'workers'), (string) getmypid());
}

/** Counters of a Redis server's INFO that show how many connections it has seen. */
function seckill_server_info(Redis $redis): array
{
	$stats = $redis->info('stats');
	$clients = $redis->info('clients');
	return [
		'total_connections_received' => (int) $stats['total_connections_received'],
		'connected_clients' => (int) $clients['connected_clients'],
	];
}

/**
 * Stock, orders, oversold count of $sku, and whether its lock key exists.
 * $lock may be null when only the shop side is wanted.
 */
function seckill_stats(Redis $shop, ?Redis $lock, string $sku): array
{
	[$stock, $initial] = $shop->mGet([seckill_key($sku, 'stock'), seckill_key($sku, 'initial')]);
	$orders = (int) $shop->hLen(seckill_key($sku, 'orders'));
	$buyers = (int) $shop->sCard(seckill_key($sku, 'buyers'));
	$stats = [
		'sku' => $sku,
		'initial' => $initial === false ? null : (int) $initial,
		'stock' => $stock === false ? null : (int) $stock,
		'orders' => $orders,
		'oversold' => $initial === false ? 0 : max(0, $orders - (int) $initial),
		'buyers' => $buyers,
		'workers' => (int) $shop->sCard(seckill_key($sku, 'workers')),
	];
	if ($lock !== null) {
		$key = seckill_lock_key($sku);
		$stats['lock_key'] = $key;
		$stats['lock_held'] = (bool) $lock->exists($key);
		$stats['lock_pttl'] = (int) $lock->pttl($key);
		$stats['lock_server'] = seckill_server_info($lock);
	}
	return $stats;
}

/** Send $body as JSON with $status and stop. */
function seckill_respond(int $status, array $body): never
{
	$json = json_encode($body, JSON_UNESCAPED_SLASHES) . "\n";
	http_response_code($status);
	header('Content-Type: application/json');
	header('Content-Length: ' . strlen($json));
	echo $json;
	exit;
}

/** A request parameter that names something: letters, digits, '-', '_', '.', ':'. */
function seckill_param(string $name, ?string $default = null): string
{
	$value = $_GET[$name] ?? $default;
	if (!is_string($value) || !preg_match('/^[A-Za-z0-9_.:-]{1,64}$/', $value)) {
		seckill_respond(400, ['status' => 'bad_request', 'param' => $name]);
	}
	return $value;
}

/** A request flag: absent -> $default, '0'/'false'/'off' -> false, anything else -> true. */
function seckill_flag(string $name, bool $default): bool
{
	if (!isset($_GET[$name]) || !is_string($_GET[$name])) {
		return $default;
	}
	return !in_array(strtolower($_GET[$name]), ['0', 'false', 'off', 'no'], true);
}
