<?php

declare(strict_types=1);

namespace RLock\Bridge\Laravel;

use Psr\Log\LoggerInterface;
use RLock\Bridge\ReleaseAll;

/**
 * RLock::releaseAll() after each request, task, tick or job a long-running Laravel worker
 * handles (Octane on RoadRunner, FrankenPHP or Swoole; queue:work): see ReleaseAll.
 * ReleaseAllServiceProvider listens with it to EVENTS; any event object will do, so
 * `Event::listen(MyLoopEnded::class, [ReleaseAllListener::class, 'handle'])` serves a loop
 * of one's own.
 *
 * A job of the `sync` queue runs inside the request or command that dispatched it, which may
 * hold locks still: its JobProcessed is not the end of anything, and is let pass. Not
 * JobFailed: `$this->fail()` raises it while the job runs; a job that throws raises
 * JobExceptionOccurred once it is over. Not Illuminate\Foundation\Http\Events\RequestHandled
 * either: it comes before the terminable middleware and the terminating callbacks, which may
 * still use what the request holds (a loop of one's own calls RLock::releaseAll() after
 * $kernel->terminate()).
 */
class ReleaseAllListener
{
    public const EVENTS = [
        // Octane: after the response was sent and the kernel terminated
        'Laravel\Octane\Events\RequestTerminated',
        'Laravel\Octane\Events\TaskTerminated',
        'Laravel\Octane\Events\TickTerminated',
        // queue:work, queue:listen's workers, Horizon: a job returned, or threw
        'Illuminate\Queue\Events\JobProcessed',
        'Illuminate\Queue\Events\JobExceptionOccurred',
    ];

    private ReleaseAll $releaseAll;

    public function __construct(?LoggerInterface $logger = null)
    {
        $this->releaseAll = new ReleaseAll($logger);
    }

    /** @param mixed $event the event object (a string event's first payload item, if any) */
    public function handle($event = null): void
    {
        $job = is_object($event) ? $event->job ?? null : null;
        if ($job instanceof \Illuminate\Queue\Jobs\SyncJob) {
            return;
        }
        ($this->releaseAll)($job !== null ? 'job' : 'request');
    }

    /** The holds released since this listener was made. */
    public function released(): int
    {
        return $this->releaseAll->released();
    }
}
