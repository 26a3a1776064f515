<?php
/*
 * GET /rlock_status.php[?keys=0]    rlock_status() as JSON: the pool's lock statistics (hot
 * keys, waits, timeouts, lost locks, servers), read in whichever worker serves the page.
 */

declare(strict_types=1);

$json = json_encode(rlock_status(($_GET['keys'] ?? '1') !== '0'),
	JSON_UNESCAPED_SLASHES | JSON_INVALID_UTF8_SUBSTITUTE | JSON_PRESERVE_ZERO_FRACTION) . "\n";
header('Content-Type: application/json');
header('Content-Length: ' . strlen($json));
echo $json;
