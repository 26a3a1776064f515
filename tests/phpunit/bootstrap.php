<?php
/* PHPUnit scenarios run real processes against real redis-servers: each test starts the
 * servers it needs on free loopback ports and stops them. */

if (!extension_loaded('rlock')) {
    fwrite(STDERR, "load the extension: php -d extension=modules/rlock.so /usr/bin/phpunit ...\n");
    exit(1);
}

require_once __DIR__ . '/RedisServer.php';
require_once __DIR__ . '/Processes.php';
require_once __DIR__ . '/Network.php';
require_once __DIR__ . '/OneServerTestCase.php';
