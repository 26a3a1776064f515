<?php
/*
 * A long-running worker, as RoadRunner, FrankenPHP's worker mode, Octane or a queue consumer
 * runs PHP: one PHP CLI process handles 1,000 requests and jobs in a loop, and nothing ends
 * between them. Its handlers leave holds behind in every way a worker's code does: a handler
 * throws while holding (the exception, kept for the log, keeps the lock), a service or a
 * static keeps a lock, a semaphore's permits, a read side, a watchdog lock taken twice, a
 * lock over several keys, or a reference cycle waits for the collector. After each request
 * the bridge's listener (symfony's ReleaseAllSubscriber on kernel.terminate for a request,
 * Laravel's ReleaseAllListener on JobProcessed / JobExceptionOccurred for a job) calls
 * RLock::releaseAll(). Checked from this process while the worker waits for the next request:
 * every key the request took can be taken by another (asked of Redis), the worker released
 * what the request left (counted by the listener), the number of connections to Redis does
 * not grow, and the worker's memory and RSS are flat.
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit -c tests/phpunit/phpunit.xml --filter WorkerLoopTest
 */

declare(strict_types=1);

final class WorkerLoopTest extends BridgeTestCase
{
    private const REQUESTS = 1000;
    /** The request after which the worker is warm: every kind of handler ran, as a request and as a job (14 do), many times. */
    private const WARM = 99;

    /**
     * The worker: handles request $i when told (a line on stdin), dispatches the end event,
     * and prints what it released and its memory; JSON in $argv[2].
     */
    private const WORKER = <<<'PHP'
        require $argv[1];
        // an exception's trace keeps its calls' arguments (Debian's php.ini drops them)
        ini_set('zend.exception_ignore_args', '0');
        $cfg = json_decode($argv[2], true);
        $o = $cfg['opts'];

        final class Service
        {
            public static array $kept = [];
            public static ?Throwable $lastError = null;
        }

        function charge(RLock $lock, int $i): void
        {
            throw new RuntimeException("payment $i declined");
        }

        /** Request $i's handler: takes what its kind takes and leaves it held. */
        function handle(int $i, array $o): void
        {
            switch ($i % 7) {
                case 0:  // a clean handler: releases what it took
                    $l = new RLock('clean', $o);
                    $l->lock(1000);
                    $l->unlock();
                    return;
                case 1:  // throws while holding: the exception's trace keeps the lock
                    $l = new RLock('thrown', $o);
                    $l->lock(1000);
                    charge($l, $i);
                    return;
                case 2:  // a static keeps the lock
                    $l = new RLock('static', $o);
                    $l->lock(1000);
                    Service::$kept['static'] = $l;
                    return;
                case 3:  // a reference cycle: collected some time later
                    $c = new stdClass();
                    $c->self = $c;
                    $c->lock = new RLock('cycle', $o);
                    $c->lock->lock(1000);
                    return;
                case 4:  // a service keeps a semaphore's permits
                    $s = new RSemaphore('pool', 3, $o);
                    $s->acquire(2, 1000);
                    Service::$kept['pool'] = $s;
                    return;
                case 5:  // a read side kept, a write side in a cycle
                    $rw = new RReadWriteLock('doc', $o);
                    $rw->readLock()->lock(1000);
                    Service::$kept['doc'] = $rw;
                    $c = new stdClass();
                    $c->self = $c;
                    $c->rw = new RReadWriteLock('cache', $o);
                    $c->rw->writeLock()->lock(1000);
                    return;
                case 6:  // a watchdog lock taken twice (one hold) and a lock over several keys, kept
                    $w = new RLock('renewed', ['watchdog' => true, 'ttl' => 1000] + $o);
                    $w->lock(1000);
                    $w->lock(1000);
                    $m = RLock::multi(['m1', 'm2'], $o);
                    $m->lock(1000);
                    Service::$kept['renewed'] = [$w, $m];
                    return;
            }
        }

        $symfony = new Symfony\Component\EventDispatcher\EventDispatcher();
        $symfony->addSubscriber($subscriber = new RLock\Bridge\Symfony\ReleaseAllSubscriber());
        $app = new Illuminate\Container\Container();
        $app->instance('events', $laravel = new Illuminate\Events\Dispatcher($app));
        $provider = new RLock\Bridge\Laravel\ReleaseAllServiceProvider($app);
        $provider->register();
        $provider->boot();
        $listener = $app->make(RLock\Bridge\Laravel\ReleaseAllListener::class);
        $kernel = new class implements Symfony\Component\HttpKernel\HttpKernelInterface {
            public function handle(Symfony\Component\HttpFoundation\Request $request, int $type = self::MAIN_REQUEST,
                bool $catch = true): Symfony\Component\HttpFoundation\Response
            {
                return new Symfony\Component\HttpFoundation\Response();
            }
        };
        $job = new class extends Illuminate\Queue\Jobs\Job {
            public function getJobId() { return '1'; }
            public function getRawBody() { return '{}'; }
        };

        for ($i = 0; $i < $cfg['requests'] && fgets(STDIN) !== false; $i++) {
            $before = $subscriber->released() + $listener->released();
            $error = null;
            try {
                handle($i, $o);
            } catch (Throwable $e) {
                $error = Service::$lastError = $e;  // kept for the log, with its trace
            }
            // even: a request of the HTTP worker; odd: a job of the queue worker
            if ($i % 2 === 0) {
                $symfony->dispatch(new Symfony\Component\HttpKernel\Event\TerminateEvent($kernel,
                    Symfony\Component\HttpFoundation\Request::create("/buy/$i"), new Symfony\Component\HttpFoundation\Response()),
                    Symfony\Component\HttpKernel\KernelEvents::TERMINATE);
            } elseif ($error === null) {
                $laravel->dispatch(new Illuminate\Queue\Events\JobProcessed('redis', $job));
            } else {
                $laravel->dispatch(new Illuminate\Queue\Events\JobExceptionOccurred('redis', $job, $error));
            }
            $r = ['i' => $i, 'released' => $subscriber->released() + $listener->released() - $before];
            if ($i === $cfg['warm'] || $i === $cfg['requests'] - 1) {
                // what the collector frees, at the two points compared
                gc_collect_cycles();
                $r['memory'] = memory_get_usage();
                $r['rss'] = (int) explode(' ', file_get_contents('/proc/self/statm'))[1] * 4096;
            }
            echo json_encode($r), "\n";
        }
        PHP;

    /** What request $i leaves held, as the handler's kind takes it: the holds releaseAll() releases. */
    private const LEFT = [0 => 0, 1 => 1, 2 => 1, 3 => 1, 4 => 1, 5 => 2, 6 => 2];

    /** Whether another process could take each key a handler takes: tried by this one, and given back. */
    private function assertAllFree(int $i): void
    {
        $o = $this->options();
        foreach (['clean', 'thrown', 'static', 'cycle', 'renewed'] as $key) {
            $l = new RLock($key, $o);
            $this->assertTrue($l->tryLock(), "after request $i, $key is held");
            $l->unlock();
        }
        $m = RLock::multi(['m1', 'm2'], $o);
        $this->assertTrue($m->tryLock(), "after request $i, m1 or m2 is held");
        $m->unlock();
        foreach (['doc', 'cache'] as $key) {
            $w = (new RReadWriteLock($key, $o))->writeLock();
            $this->assertTrue($w->tryLock(), "after request $i, $key is held");
            $w->unlock();
        }
        $this->assertSame(3, (new RSemaphore('pool', 3, $o))->available(), "after request $i, permits are held");
    }

    private function connections(): int
    {
        return (int) $this->client->info('clients')['connected_clients'];
    }

    public function testAWorkerLoopOfAThousandRequestsLeavesNothingHeld(): void
    {
        $proc = proc_open(array_merge(Processes::php(), ['-r', self::WORKER, '--', __DIR__ . '/bridge.php',
            json_encode(['opts' => $this->options(), 'requests' => self::REQUESTS, 'warm' => self::WARM])]),
            [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        $this->assertIsResource($proc);
        // (stdin stays ours: the children list holds the pipes it reads, closed at tearDown)
        $this->children[] = [$proc, [1 => $pipes[1], 2 => $pipes[2]]];
        $w = array_key_last($this->children);
        $baseline = null;
        $warm = $end = null;
        for ($i = 0; $i < self::REQUESTS; $i++) {
            fwrite($pipes[0], "next\n");
            $r = $this->report($w);
            $this->assertSame($i, $r['i']);
            $this->assertAllFree($i);
            $this->assertSame(self::LEFT[$i % 7], $r['released'], "request $i: what the listener released");
            if ($i === self::WARM) {
                $baseline = $this->connections();
                $warm = $r;
            } elseif ($i > self::WARM) {
                $this->assertLessThanOrEqual($baseline, $this->connections(), "after request $i: connections grew");
            }
            if ($i === self::REQUESTS - 1) {
                $end = $r;
            }
        }
        fclose($pipes[0]);
        $this->finishChild($w);
        // flat: a byte leaked per request would be 900 bytes; an object kept per request, 100 KiB or more
        $this->assertLessThan(64 * 1024, $end['memory'] - $warm['memory'],
            "memory_get_usage() after request " . self::WARM . ": {$warm['memory']}, at the end: {$end['memory']}");
        $this->assertLessThan(2 * 1024 * 1024, $end['rss'] - $warm['rss'],
            "RSS after request " . self::WARM . ": {$warm['rss']}, at the end: {$end['rss']}");
    }
}
