<?php
/*
 * GET /buy.php?sku=SKU&user=USER    buy one item of SKU, guarded by rlock
 *
 * Optional parameters:
 *   lock=0          the same code without the lock (the oversell rlock prevents);
 *                   the environment variable SECKILL_LOCK=0 makes that the default
 *   lock=KIND       the same code under another lock, to compare: baton, floor, phpredis,
 *                   symfony, laravel (SECKILL_LOCKS in lib/shop.php); rlock, none
 *   persistent=0    the lock opens a new Redis connection for this request
 *   wait=MS         how long to queue for the lock (3000)
 *   work_us=US      pretend the sale does this much work between its read and its write (0)
 *   limit=N         a rate limit in front of the lock: N attempts per second per buyer
 *                   (RRateLimiter, GCRA on the lock server's clock); 0: none (the default)
 *
 * Answers JSON: {"status": "ok", "order": N, "stock_left": N}, or status sold_out,
 * already_bought (HTTP 200); busy (503: lock not acquired within wait); lock_unavailable
 * (503: lock server unreachable); shed (429: over the buyer's rate limit, with Retry-After).
 */

declare(strict_types=1);

require __DIR__ . '/../lib/shop.php';

$sku = seckill_param('sku');
$user = seckill_param('user');
$kind = seckill_lock_kind(seckill_param('lock', getenv('SECKILL_LOCK') === '0' ? 'none' : 'rlock'))
	?? seckill_respond(400, ['status' => 'bad_request', 'param' => 'lock']);
$persistent = seckill_flag('persistent', true);
$wait = max(0, (int) ($_GET['wait'] ?? 3000));
$workUs = max(0, min(1000000, (int) ($_GET['work_us'] ?? 0)));
$limit = max(0, min(1000, (int) ($_GET['limit'] ?? 0)));

$shop = seckill_connect(seckill_dsn('shop'));
seckill_note_worker($shop, $sku);

// The flood shed before it reaches the lock: a buyer who clicks again within the second
// is turned away in one script call, whatever lock guards the sale.
if ($limit > 0) {
	$perBuyer = new RRateLimiter("seckill:buyer:$user", $limit, 1000, seckill_rate_options());
	if (!$perBuyer->tryAcquire()) {
		header('Retry-After: ' . (int) ceil($perBuyer->retryAfter() / 1000));
		seckill_respond(429, ['status' => 'shed', 'retry_after_ms' => $perBuyer->retryAfter()]);
	}
}

$sell = fn (): array => seckill_sell($shop, $sku, $user, $workUs);

if ($kind === 'none') {
	seckill_respond(200, $sell());
}

if ($kind !== 'rlock') {
	// A peer, written as its documentation shows (bench/lib/$kind.php).
	[$lock, $unlock] = seckill_peer_lock($kind, $sku, $wait, $persistent);
	if (!$lock()) {
		seckill_respond(503, ['status' => 'busy']);
	}
	try {
		$result = $sell();
	} finally {
		$unlock();
	}
	seckill_respond(200, $result);
}

$lock = new RLock("seckill:$sku", seckill_lock_options($wait, $persistent));
try {
	$result = $lock->synchronized($sell);
} catch (RLockTimeoutException) {
	seckill_respond(503, ['status' => 'busy']);
} catch (RLockConnectionException $e) {
	error_log('seckill: lock server: ' . $e->getMessage());
	seckill_respond(503, ['status' => 'lock_unavailable']);
} catch (RLockLostException $e) {
	// The sale ran, but took longer than the lease: someone else may have sold concurrently.
	error_log("seckill: lock on $sku expired during a sale");
	$result = $e->getResult() + ['lock_lost' => true];
}
seckill_respond(200, $result);
