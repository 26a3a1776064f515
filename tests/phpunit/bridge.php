<?php
/* Loads the framework bridge (bridge/src, PSR-4 RLock\Bridge\) without composer, with
 * Debian's symfony/lock, symfony/semaphore, symfony/rate-limiter, illuminate/cache and
 * illuminate/redis, and for the worker loops symfony/http-kernel, symfony/messenger,
 * illuminate/events and illuminate/queue; the bridge tests' child processes require it too. */

declare(strict_types=1);

require_once '/usr/share/php/Symfony/Component/Lock/autoload.php';
require_once '/usr/share/php/Symfony/Component/Semaphore/autoload.php';
require_once '/usr/share/php/Symfony/Component/RateLimiter/autoload.php';
require_once '/usr/share/php/Illuminate/Cache/autoload.php';
require_once '/usr/share/php/Illuminate/Redis/autoload.php';
// the worker loops' listeners (ReleaseAllSubscriber, ReleaseAllListener) and their events
require_once '/usr/share/php/Symfony/Component/HttpKernel/autoload.php';
require_once '/usr/share/php/Symfony/Component/Messenger/autoload.php';
require_once '/usr/share/php/Illuminate/Events/autoload.php';
require_once '/usr/share/php/Illuminate/Queue/autoload.php';
require_once dirname(__DIR__, 2) . '/bridge/autoload.php';
