<?php

declare(strict_types=1);

namespace RLock\Bridge;

use Psr\Log\LoggerInterface;
use RLock;

/**
 * What a long-running worker (RoadRunner, FrankenPHP's worker mode, Laravel Octane, a queue
 * consumer) does after each request or job it handled: RLock::releaseAll(), which releases
 * every hold the request took and left (kept by a service or a static, in a reference cycle
 * the collector has not reached, in an exception kept for a log), as a request's end does on
 * php-fpm. Without it such a hold stays until its lease ends, as nothing ends between the
 * worker's requests. Holds taken with `auto_release` off (the framework stores' locks) are
 * left held, and the objects forget them: the bridge's symfony/lock and Laravel locks take
 * theirs back by their token (a lock a service keeps across requests stays releasable), but
 * an RSemaphore cannot, so a symfony/semaphore permit kept across requests ends with its ttl.
 *
 * Counts what it released, and tells the logger (PSR-3), when given, of every request that
 * left holds: a lock that outlives its handler is worth a look.
 */
final class ReleaseAll
{
    private int $released = 0;
    private int $runs = 0;

    public function __construct(private ?LoggerInterface $logger = null)
    {
    }

    /** Release what the request or job ($after names it, for the log) left; how many holds. */
    public function __invoke(string $after = 'request'): int
    {
        $n = RLock::releaseAll();
        $this->runs++;
        $this->released += $n;
        if ($n > 0 && $this->logger !== null) {
            $this->logger->notice('rlock: released {count} lock hold(s) the {after} left', ['count' => $n, 'after' => $after]);
        }
        return $n;
    }

    /** The holds released since this object was made. */
    public function released(): int
    {
        return $this->released;
    }

    /** How many times it ran (the requests and jobs it followed). */
    public function runs(): int
    {
        return $this->runs;
    }
}
