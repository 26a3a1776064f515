<?php
/*
 * A flash sale on Swoole\Http\Server, coroutines and hooks on: every buyer's request is a
 * coroutine, and the sale's read-modify-write of the stock (the oversell a lock prevents) is
 * guarded by one lock per item.
 *
 *   php -d extension=swoole.so -d extension=rlock.so examples/swoole/flash_sale.php \
 *       [--port=8080] [--workers=1] [--redis=redis://127.0.0.1:6379] [--lock=rlock]
 *
 * GET /buy?user=U[&sku=S]   {"status": "ok", "order": N, "stock_left": N}, or sold_out,
 *                           already_bought; busy (503: not served within 3 s)
 * GET /reset?stock=N[&sku=S]  a new sale of N items; GET /stats[?sku=S]: stock and orders
 * GET /ping                   pong
 *
 * --lock=rlock (the default) waits in rlock's queue: a release hands the lock to the next
 * coroutine at once, without polling, and the wait yields the coroutine. To compare (bench/
 * swoole.php): baton (a token passed through a Redis list, BLPOP/RPUSH on hooked phpredis),
 * floor (the least a lock that checks its owner and hands over costs on Redis 7: two small
 * scripts and a BLPOP), setnx (SET NX with a 5 ms coroutine sleep between tries, the classic
 * lock), poll (the same with 250 ms, as friendsofhyperf/lock waits), none (no lock: it
 * oversells).
 */

declare(strict_types=1);

$opt = getopt('', ['port::', 'workers::', 'redis::', 'lock::']);
$port = (int) ($opt['port'] ?? 8080);
$workers = (int) ($opt['workers'] ?? 1);
$dsn = $opt['redis'] ?? 'redis://127.0.0.1:6379';
$kind = $opt['lock'] ?? 'rlock';
['host' => $host, 'port' => $redisPort] = parse_url($dsn) + ['port' => 6379];
const WAIT_MS = 3000;
const TTL_MS = 5000;
// --lock=floor: issue 30's floor, an owner-checked FIFO lock (its scripts: floor_lock.php)
require __DIR__ . '/floor_lock.php';

$server = new Swoole\Http\Server('127.0.0.1', $port);
$server->set([
    'worker_num' => $workers,
    'enable_coroutine' => true,
    // (without the curl extension Swoole warns, per worker and request, of each curl function
    // it cannot hook)
    'hook_flags' => extension_loaded('curl') ? SWOOLE_HOOK_ALL : SWOOLE_HOOK_ALL & ~(SWOOLE_HOOK_CURL | SWOOLE_HOOK_NATIVE_CURL),
    'log_level' => SWOOLE_LOG_WARNING,
]);

$pool = null;
$server->on('workerStart', function () use (&$pool, $host, $redisPort) {
    // the shop's own connections: one per coroutine at a time
    $pool = new Swoole\Database\RedisPool((new Swoole\Database\RedisConfig())
        ->withHost($host)->withPort((int) $redisPort), 1024);
});

/** [lock(): bool, unlock(): void, giveUp(): void] for the item's lock of this kind: after a
 * lock() that failed, giveUp() instead of unlock(). */
function sale_lock(string $kind, string $sku, string $dsn, Swoole\Database\RedisPool $pool): array
{
    $key = "sale:$sku:lock";
    switch ($kind) {
        case 'rlock':
            $lock = new RLock($key, ['server' => $dsn, 'wait' => WAIT_MS, 'ttl' => TTL_MS]);
            return [fn () => $lock->lock(), fn () => $lock->unlock(), fn () => null];
        case 'baton':
            // the list holds one token (reset puts it there): whoever pops it holds the lock
            $redis = $pool->get();
            return [
                fn () => (bool) $redis->blPop(["sale:$sku:baton"], WAIT_MS / 1000),
                function () use ($redis, $pool, $sku) {
                    $redis->rPush("sale:$sku:baton", '1');
                    $pool->put($redis);
                },
                fn () => $pool->put($redis),
            ];
        case 'floor':
            // the least a lock that checks its owner and hands over can cost on Redis 7, which
            // has no compare-and-set command: a script to take the key or queue our token
            // (sent with the BLPOP on our own grant list in one write), a script to release
            // or hand over to the queue's first. No more: no expiry of its queue, a waiter
            // that times out stays queued (it is handed the key all the same, held then for
            // a lease by nobody), no fencing, no reentrancy (bench/swoole.php compares rlock
            // with it)
            $redis = $pool->get();
            $token = bin2hex(random_bytes(16));
            $keys = [$key, "$key:queue", "$key:grant:$token"];
            return [
                function () use ($redis, $keys, $token) {
                    $redis->multi(Redis::PIPELINE);
                    $redis->evalSha(sha1(FLOOR_ACQUIRE), [...$keys, $token, TTL_MS], 3);
                    $redis->blPop([$keys[2]], WAIT_MS / 1000);
                    // (the scripts are loaded by /reset)
                    [, $popped] = $redis->exec();
                    return (bool) $popped;
                },
                function () use ($redis, $pool, $keys, $token) {
                    $redis->evalSha(sha1(FLOOR_RELEASE), [$keys[0], $keys[1], $token, TTL_MS], 2);
                    $pool->put($redis);
                },
                fn () => $pool->put($redis),
            ];
        case 'setnx':
        case 'poll':
            $sleep = $kind === 'setnx' ? 0.005 : 0.25;
            $token = bin2hex(random_bytes(16));
            $redis = $pool->get();
            return [
                function () use ($redis, $key, $token, $sleep) {
                    $until = microtime(true) + WAIT_MS / 1000;
                    while (!$redis->set($key, $token, ['NX', 'PX' => TTL_MS])) {
                        if (microtime(true) >= $until) {
                            return false;
                        }
                        Co::sleep($sleep);
                    }
                    return true;
                },
                function () use ($redis, $pool, $key, $token) {
                    $redis->eval('if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0',
                        [$key, $token], 1);
                    $pool->put($redis);
                },
                fn () => $pool->put($redis),
            ];
        default:
            return [fn () => true, fn () => null, fn () => null];
    }
}

/** The sale's read-modify-write: what a lock must guard. */
function sale_sell(Redis $shop, string $sku, string $user): array
{
    $stock = (int) $shop->get("sale:$sku:stock");
    if ($stock <= 0) {
        return ['status' => 'sold_out'];
    }
    if ($shop->sIsMember("sale:$sku:buyers", $user)) {
        return ['status' => 'already_bought'];
    }
    $order = $shop->incr("sale:$sku:seq");
    $shop->sAdd("sale:$sku:buyers", $user);
    $shop->set("sale:$sku:stock", $stock - 1);
    return ['status' => 'ok', 'order' => $order, 'stock_left' => $stock - 1];
}

$server->on('request', function ($req, $res) use (&$pool, $dsn, $kind) {
    $get = $req->get ?? [];
    $sku = (string) ($get['sku'] ?? 'item');
    $reply = function (int $code, array $body) use ($res) {
        $res->status($code);
        $res->header('Content-Type', 'application/json');
        $res->end(json_encode($body));
    };
    switch ($req->server['request_uri']) {
        case '/ping':
            $res->end('pong');
            return;
        case '/buy':
            // the lock first: a buyer waiting in the queue holds none of the shop's connections
            [$lock, $unlock, $giveUp] = sale_lock($kind, $sku, $dsn, $pool);
            try {
                if (!$lock()) {
                    $giveUp();
                    $reply(503, ['status' => 'busy']);
                    return;
                }
            } catch (RLockConnectionException $e) {
                $reply(503, ['status' => 'lock_unavailable']);
                return;
            }
            $shop = $pool->get();
            try {
                $result = sale_sell($shop, $sku, (string) ($get['user'] ?? ''));
            } finally {
                $pool->put($shop);
                $unlock();
            }
            $reply(200, $result);
            return;
        case '/reset':
            $shop = $pool->get();
            $shop->del("sale:$sku:buyers", "sale:$sku:seq", "sale:$sku:baton", "sale:$sku:lock",
                "sale:$sku:lock:grants", "sale:$sku:lock:waiters", "sale:$sku:lock:queue");
            $shop->script('load', FLOOR_ACQUIRE);
            $shop->script('load', FLOOR_RELEASE);
            $shop->set("sale:$sku:stock", (int) ($get['stock'] ?? 100));
            $shop->rPush("sale:$sku:baton", '1');
            $pool->put($shop);
            $reply(200, ['status' => 'ok']);
            return;
        case '/stats':
            $shop = $pool->get();
            $stats = ['stock' => (int) $shop->get("sale:$sku:stock"), 'orders' => (int) $shop->get("sale:$sku:seq"),
                'buyers' => (int) $shop->sCard("sale:$sku:buyers")];
            $pool->put($shop);
            $reply(200, $stats);
            return;
        default:
            $reply(404, ['status' => 'not_found']);
    }
});

$server->start();
