<?php
/*
 * GET /status/status.php    the pool's lock statistics as JSON (lib.php), polled by the page
 * every second. Any php-fpm worker answers with the same numbers: they live in shared memory.
 */

declare(strict_types=1);

require __DIR__ . '/lib.php';

header('Content-Type: application/json');
header('Cache-Control: no-store');
echo json_encode(rlock_status_view(), JSON_UNESCAPED_SLASHES | JSON_PRESERVE_ZERO_FRACTION), "\n";
