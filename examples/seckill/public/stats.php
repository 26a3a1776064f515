<?php
/*
 * GET /stats.php?sku=SKU    stock, orders and oversold count of SKU, whether its lock is
 * held, and the lock server's connection counters (INFO stats total_connections_received,
 * INFO clients connected_clients).
 *
 * This page opens its own, non-persistent connection to the lock server to read those
 * counters, so each call adds one to total_connections_received.
 */

declare(strict_types=1);

require __DIR__ . '/../lib/shop.php';

$sku = seckill_param('sku');
$lock = seckill_connect(seckill_dsn('lock'), false);
$stats = seckill_stats(seckill_connect(seckill_dsn('shop')), $lock, $sku);
$lock->close();
seckill_respond(200, $stats);
