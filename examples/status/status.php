<?php
/*
 * GET /status/status.php    the pool's lock statistics as JSON (lib.php), polled by the page
 * every second. Any php-fpm worker answers with the same numbers: they live in shared memory.
 */

declare(strict_types=1);

require_once __DIR__ . '/lib.php';

header('Content-Type: application/json');
header('Cache-Control: no-store');
// the names are valid UTF-8 (rlock escapes what is not); a name that was not would still leave the
// answer whole (U+FFFD), never an empty body
echo json_encode(rlock_status_view(), JSON_UNESCAPED_SLASHES | JSON_PRESERVE_ZERO_FRACTION | JSON_INVALID_UTF8_SUBSTITUTE), "\n";
