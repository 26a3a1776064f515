<?php
/* PHPUnit scenarios run real processes against real redis-servers: each test starts the
 * servers it needs on free loopback ports and stops them. */

if (!extension_loaded('rlock')) {
    fwrite(STDERR, "load the extension: php -d extension=modules/rlock.so /usr/bin/phpunit ...\n");
    exit(1);
}

/* The test method's name on PHPUnit 9 (getName(), gone in 10) and 10+ (name()). */
function rlock_test_name(PHPUnit\Framework\TestCase $test): string
{
    return method_exists($test, 'name') ? $test->name() : $test->getName(false);
}

require_once __DIR__ . '/RedisServer.php';
require_once __DIR__ . '/Processes.php';
require_once __DIR__ . '/Network.php';
require_once __DIR__ . '/Fpm.php';
require_once __DIR__ . '/OneServerTestCase.php';
require_once __DIR__ . '/bridge.php';
require_once __DIR__ . '/BridgeTestCase.php';
