<?php
/*
 * The bridge's listeners for long-running workers (bridge/src/ReleaseAll.php): symfony's
 * ReleaseAllSubscriber on a real EventDispatcher dispatching a real TerminateEvent and
 * messenger's worker events, and Laravel's ReleaseAllServiceProvider on a real container and
 * event Dispatcher dispatching a real JobProcessed and JobExceptionOccurred: each event
 * releases what the request or job left held (RLock::releaseAll()), counts it and logs it;
 * a sync queue's job (inside a request) and JobFailed (raised while a job runs) release
 * nothing; the framework stores' locks (`auto_release` off) stay held and releasable.
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit -c tests/phpunit/phpunit.xml --filter BridgeWorkerTest
 */

declare(strict_types=1);

use Illuminate\Container\Container;
use Illuminate\Events\Dispatcher;
use Illuminate\Queue\Events\JobExceptionOccurred;
use Illuminate\Queue\Events\JobFailed;
use Illuminate\Queue\Events\JobProcessed;
use Illuminate\Queue\Jobs\Job;
use Illuminate\Queue\Jobs\SyncJob;
use Psr\Log\AbstractLogger;
use RLock\Bridge\Laravel\ReleaseAllListener;
use RLock\Bridge\Laravel\ReleaseAllServiceProvider;
use RLock\Bridge\Symfony\ReleaseAllSubscriber;
use RLock\Bridge\Symfony\RLockStore as SymfonyStore;
use Symfony\Component\EventDispatcher\EventDispatcher;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\Response;
use Symfony\Component\HttpKernel\Event\TerminateEvent;
use Symfony\Component\HttpKernel\HttpKernelInterface;
use Symfony\Component\HttpKernel\KernelEvents;
use Symfony\Component\Lock\LockFactory;
use Symfony\Component\Messenger\Envelope;
use Symfony\Component\Messenger\Event\WorkerMessageFailedEvent;
use Symfony\Component\Messenger\Event\WorkerMessageHandledEvent;

/** A PSR-3 logger that keeps what it is told. */
final class BridgeWorkerTestLogger extends AbstractLogger
{
    public array $lines = [];

    public function log($level, $message, array $context = []): void
    {
        $this->lines[] = [$level, strtr((string) $message, ['{count}' => $context['count'] ?? '', '{after}' => $context['after'] ?? ''])];
    }
}

/** A queue job of a driver that runs in a worker (not the sync queue). */
final class BridgeWorkerTestJob extends Job
{
    public function __construct()
    {
        $this->container = new Container();
        $this->connectionName = 'redis';
        $this->queue = 'default';
    }

    public function getJobId()
    {
        return '1';
    }

    public function getRawBody()
    {
        return '{}';
    }
}

final class BridgeWorkerTest extends BridgeTestCase
{
    protected function tearDown(): void
    {
        RLock::releaseAll();  // what a failed test left, while its server runs
        parent::tearDown();
    }

    /**
     * What a request leaves behind: a lock kept by a service, one in a reference cycle, a
     * semaphore's permits (the caller keeps what this returns, as the service would).
     */
    private function leaveHolds(): array
    {
        $o = $this->options();
        $kept = new RLock('kept', $o);
        $this->assertTrue($kept->tryLock());
        $cycle = new stdClass();
        $cycle->self = $cycle;
        $cycle->lock = new RLock('cycle', $o);
        $this->assertTrue($cycle->lock->tryLock());
        $sem = new RSemaphore('pool', 2, $o);
        $this->assertTrue($sem->tryAcquire(2));
        $this->assertTrue((new RLock('kept', $o))->isLocked());
        return [$kept, $sem];
    }

    /** Whether another process could take every hold leaveHolds() took (asked of Redis by one). */
    private function assertNothingHeld(): void
    {
        $this->assertSame(0, $this->client->exists('bridge:kept', 'bridge:cycle'), 'the locks are released');
        $this->assertSame(2, (new RSemaphore('pool', 2, $this->options()))->available(), 'the permits are back');
    }

    public function testSymfonyKernelTerminateReleasesWhatTheRequestLeft(): void
    {
        $logger = new BridgeWorkerTestLogger();
        $subscriber = new ReleaseAllSubscriber($logger);
        $dispatcher = new EventDispatcher();
        $dispatcher->addSubscriber($subscriber);
        $kernel = new class implements HttpKernelInterface {
            public function handle(Request $request, int $type = self::MAIN_REQUEST, bool $catch = true): Response
            {
                return new Response('ok');
            }
        };
        $held = $this->leaveHolds();
        $dispatcher->dispatch(new TerminateEvent($kernel, Request::create('/buy'), new Response('ok')), KernelEvents::TERMINATE);
        $this->assertNothingHeld();
        $this->assertFalse($held[0]->isAcquired());
        $this->assertSame(3, $subscriber->released());
        $this->assertSame([['notice', 'rlock: released 3 lock hold(s) the request left']], $logger->lines);
        // a request that left nothing: nothing to say
        $dispatcher->dispatch(new TerminateEvent($kernel, Request::create('/'), new Response('ok')), KernelEvents::TERMINATE);
        $this->assertCount(1, $logger->lines);
        // and it runs after the other terminate listeners, which may still use what the request holds
        $this->assertSame(ReleaseAllSubscriber::PRIORITY, $dispatcher->getListenerPriority(KernelEvents::TERMINATE, [$subscriber, 'onRequestEnd']));
        $dispatcher->addListener(KernelEvents::TERMINATE, function () use (&$held) {
            $held = new RLock('late', $this->options());
            $this->assertTrue($held->tryLock());
        }, -1024);
        $late = null;
        $dispatcher->addListener(KernelEvents::TERMINATE, function () use (&$late) {
            $late = $this->client->exists('bridge:late');
        }, -1025);
        $dispatcher->dispatch(new TerminateEvent($kernel, Request::create('/'), new Response('ok')), KernelEvents::TERMINATE);
        $this->assertSame(1, $late, 'a lock a terminate listener took is held until the subscriber runs');
        $this->assertSame(0, $this->client->exists('bridge:late'));
    }

    public function testSymfonyMessengerWorkerEventsReleaseWhatTheMessageLeft(): void
    {
        $subscriber = new ReleaseAllSubscriber();
        $dispatcher = new EventDispatcher();
        $dispatcher->addSubscriber($subscriber);
        $envelope = new Envelope(new stdClass());
        $held = $this->leaveHolds();
        $dispatcher->dispatch(new WorkerMessageHandledEvent($envelope, 'async'));
        $this->assertNothingHeld();
        $held = $this->leaveHolds();
        $dispatcher->dispatch(new WorkerMessageFailedEvent($envelope, 'async', new RuntimeException('handler threw')));
        $this->assertNothingHeld();
        $this->assertSame(6, $subscriber->released());
    }

    public function testASymfonyLockKeptAcrossRequestsStaysHeldAndReleasable(): void
    {
        $dispatcher = new EventDispatcher();
        $dispatcher->addSubscriber(new ReleaseAllSubscriber());
        $factory = new LockFactory(new SymfonyStore($this->options()));
        // a lock a service keeps from one request of the worker to a later one
        $lock = $factory->createLock('report', 60, false);
        $this->assertTrue($lock->acquire());
        $dispatcher->dispatch(new stdClass(), KernelEvents::TERMINATE);
        $this->assertSame(1, $this->client->exists('bridge:report'), 'symfony locks live until released');
        $this->assertTrue($lock->isAcquired(), 'still ours after the request');
        $lock->refresh(30);
        $this->assertGreaterThan(25000, $this->client->pttl('bridge:report'));
        $this->assertFalse($factory->createLock('report')->acquire(), 'another owner cannot take it');
        $lock->release();
        $this->assertSame(0, $this->client->exists('bridge:report'), 'released by its owner in the later request');
    }

    /** A Laravel application of a container and an event dispatcher, with the provider booted. */
    private function laravel(array $config = []): Container
    {
        $app = new Container();
        $app->instance('events', new Dispatcher($app));
        if ($config) {
            // (Debian has no illuminate/config: its Repository's get(), dot notation)
            $app->instance('config', new class ($config) {
                public function __construct(private array $items)
                {
                }

                public function get(string $key, $default = null)
                {
                    return Illuminate\Support\Arr::get($this->items, $key, $default);
                }
            });
        }
        $app->instance('log', new BridgeWorkerTestLogger());
        $provider = new ReleaseAllServiceProvider($app);
        $provider->register();
        $provider->boot();
        return $app;
    }

    public function testLaravelQueueJobEventsReleaseWhatTheJobLeft(): void
    {
        $app = $this->laravel();
        $events = $app->make('events');
        $held = $this->leaveHolds();
        $events->dispatch(new JobProcessed('redis', new BridgeWorkerTestJob()));
        $this->assertNothingHeld();
        $held = $this->leaveHolds();
        $events->dispatch(new JobExceptionOccurred('redis', new BridgeWorkerTestJob(), new RuntimeException('job threw')));
        $this->assertNothingHeld();
        $listener = $app->make(ReleaseAllListener::class);
        $this->assertSame(6, $listener->released());
        $this->assertSame([['notice', 'rlock: released 3 lock hold(s) the job left'], ['notice', 'rlock: released 3 lock hold(s) the job left']],
            $app->make('log')->lines);
    }

    public function testALaravelLockKeptAcrossJobsStaysHeldAndReleasable(): void
    {
        $app = $this->laravel();
        $store = new RLock\Bridge\Laravel\RLockStore($this->options());
        $lock = $store->lock('report', 60);
        $this->assertTrue($lock->get());
        $app->make('events')->dispatch(new JobProcessed('redis', new BridgeWorkerTestJob()));
        $this->assertSame(1, $this->client->exists('bridge:report'), 'Laravel locks live until released');
        $this->assertFalse($store->lock('report', 60)->get(), 'another owner cannot take it');
        $this->assertTrue($lock->release(), 'released by its owner in a later job');
        $this->assertSame(0, $this->client->exists('bridge:report'));
    }

    public function testLaravelEventsInsideAJobOrARequestReleaseNothing(): void
    {
        $app = $this->laravel();
        $events = $app->make('events');
        $held = $this->leaveHolds();
        // a job of the sync queue runs inside the request that dispatched it
        $events->dispatch(new JobProcessed('sync', new SyncJob($app, '{}', 'sync', 'default')));
        // $this->fail() in a job's handle() raises JobFailed while the job runs
        $events->dispatch(new JobFailed('redis', new BridgeWorkerTestJob(), new RuntimeException('failed')));
        $this->assertTrue($held[0]->isAcquired());
        $this->assertSame(1, $this->client->exists('bridge:cycle'));
        $this->assertSame(0, $app->make(ReleaseAllListener::class)->released());
        RLock::releaseAll();
    }

    public function testLaravelEventsAreConfigurable(): void
    {
        $app = $this->laravel(['rlock' => ['release_after' => ['app.loop.ended']]]);
        $held = $this->leaveHolds();
        $app->make('events')->dispatch(new JobProcessed('redis', new BridgeWorkerTestJob()));
        $this->assertSame(1, $this->client->exists('bridge:kept'), 'only the events configured');
        $app->make('events')->dispatch('app.loop.ended');
        $this->assertNothingHeld();
        // the defaults: Octane's ends of a request, task and tick, a worker's job's end
        $this->assertSame(['Laravel\Octane\Events\RequestTerminated', 'Laravel\Octane\Events\TaskTerminated',
            'Laravel\Octane\Events\TickTerminated', JobProcessed::class, JobExceptionOccurred::class], ReleaseAllListener::EVENTS);
    }
}
