<?php

declare(strict_types=1);

namespace RLock\Bridge\Symfony;

use Psr\Log\LoggerInterface;
use RLock\Bridge\ReleaseAll;
use Symfony\Component\EventDispatcher\EventSubscriberInterface;

/**
 * RLock::releaseAll() after each request and each message a long-running Symfony worker
 * handles (RoadRunner, FrankenPHP's worker mode, messenger:consume): see ReleaseAll. On
 * `kernel.terminate` (the main request's end, after the response was sent) and on messenger's
 * WorkerMessageHandledEvent and WorkerMessageFailedEvent (a handler returned or threw), each
 * after every other listener (priority PRIORITY). A service of its own, tagged
 * kernel.event_subscriber (autoconfigure does it):
 *
 *     services:
 *         RLock\Bridge\Symfony\ReleaseAllSubscriber:
 *             arguments: ['@?logger']
 *             tags: [kernel.event_subscriber]
 *
 * On php-fpm it releases what the request's end would have, a moment earlier.
 */
final class ReleaseAllSubscriber implements EventSubscriberInterface
{
    /** After the framework's own listeners (messenger's retry and failure transport: 100, -100). */
    public const PRIORITY = -2048;

    private ReleaseAll $releaseAll;

    public function __construct(?LoggerInterface $logger = null)
    {
        $this->releaseAll = new ReleaseAll($logger);
    }

    public static function getSubscribedEvents(): array
    {
        // by name: messenger need not be installed
        return [
            'kernel.terminate' => ['onRequestEnd', self::PRIORITY],
            'Symfony\Component\Messenger\Event\WorkerMessageHandledEvent' => ['onMessageEnd', self::PRIORITY],
            'Symfony\Component\Messenger\Event\WorkerMessageFailedEvent' => ['onMessageEnd', self::PRIORITY],
        ];
    }

    public function onRequestEnd(): void
    {
        ($this->releaseAll)('request');
    }

    public function onMessageEnd(): void
    {
        ($this->releaseAll)('message');
    }

    /** The holds released since this subscriber was made. */
    public function released(): int
    {
        return $this->releaseAll->released();
    }
}
