<?php
/*
 * GET /metrics.php    rlock's statistics in Prometheus' text exposition format: what a
 * scrape job points at. The numbers are the pool's (every php-fpm worker shares them).
 */

declare(strict_types=1);

header('Content-Type: text/plain; version=0.0.4; charset=utf-8');
echo rlock_metrics();
