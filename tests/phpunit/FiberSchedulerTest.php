<?php
/*
 * Fibers: tasks a scheduler runs in Fibers of one process (as Revolt/AMPHP or ReactPHP do)
 * exclude each other through the lock as processes do. Each worker process runs a small
 * round-robin scheduler whose Fibers do a read-modify-write on a counter under the lock,
 * yielding to the others inside the section; no update is ever lost, across the Fibers of a
 * process and across processes.
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit -c tests/phpunit/phpunit.xml --filter FiberSchedulerTest
 */

declare(strict_types=1);

final class FiberSchedulerTest extends OneServerTestCase
{
    private const PROCESSES = 3;
    private const FIBERS = 4;
    private const SECTIONS = 40;

    /**
     * One worker: FIBERS tasks, SECTIONS sections each. A task takes the lock with tryLock()
     * (a blocking lock() would stop every Fiber of the process), yielding until it gets it;
     * inside, it reads the counter, yields, and writes it back plus one. Half the tasks share
     * one RLock object (a task's hold through it is still its own), the others have their own
     * (style "shared" or "own" for all of them when the config says so).
     */
    private const WORKER = <<<'PHP'
        [, $cfg] = $argv;
        $cfg = json_decode($cfg, true);
        $r = new Redis();
        $r->connect('127.0.0.1', $cfg['port']);
        $shared = new RLock('counter', $cfg['opts']);
        $failures = 0;
        $task = function (RLock $l) use ($r, $cfg, &$failures) {
            for ($i = 0; $i < $cfg['sections']; $i++) {
                while (!$l->tryLock()) {
                    Fiber::suspend(false);
                }
                $v = (int) $r->get('counter');
                Fiber::suspend(true);  // the others run while this one holds the lock
                $r->set('counter', (string) ($v + 1));
                if (!$l->unlock()) {
                    $failures++;
                }
                Fiber::suspend(true);
            }
        };
        $fibers = [];
        for ($i = 0; $i < $cfg['fibers']; $i++) {
            $l = $cfg['style'] === 'shared' || ($cfg['style'] === 'mixed' && $i % 2 === 0)
                ? $shared : new RLock('counter', $cfg['opts']);
            $fibers[] = new Fiber(fn () => $task($l));
        }
        $r->blPop(['go'], 30);
        foreach ($fibers as $f) {
            $f->start();
        }
        // round robin until every task is done; a round where no task got on: a short nap
        while ($fibers) {
            $progress = false;
            foreach ($fibers as $k => $f) {
                if ($f->isTerminated()) {
                    unset($fibers[$k]);
                    continue;
                }
                $progress = $f->resume() || $progress;
            }
            if (!$progress) {
                usleep(200);
            }
        }
        echo json_encode(['failures' => $failures]), "\n";
        PHP;

    /** @return array<string, array{0: string}> */
    public static function styles(): array
    {
        return ['one object per task' => ['own'], 'one object for all tasks' => ['shared'], 'both' => ['mixed']];
    }

    /** @dataProvider styles */
    #[PHPUnit\Framework\Attributes\DataProvider('styles')]
    public function testFibersAcrossProcessesLoseNoUpdate(string $style): void
    {
        $opts = ['server' => $this->redis->dsn(), 'prefix' => 'fs:', 'ttl' => 10000];
        $cfg = ['port' => $this->redis->port, 'fibers' => self::FIBERS, 'sections' => self::SECTIONS,
            'opts' => $opts, 'style' => $style];
        for ($i = 0; $i < self::PROCESSES; $i++) {
            $this->children[] = Processes::start(self::WORKER, [json_encode($cfg)]);
        }
        $this->await(fn () => (int) $this->client->info('clients')['blocked_clients'] >= self::PROCESSES,
            'the workers all wait for the start signal', 20);
        $this->client->rPush('go', ...array_fill(0, self::PROCESSES, '1'));

        foreach (array_keys($this->children) as $i) {
            $this->assertSame(['failures' => 0], $this->report($i, 120), "worker $i");
        }
        $this->assertSame((string) (self::PROCESSES * self::FIBERS * self::SECTIONS), $this->client->get('counter'),
            'an update was lost');
        // no lock key, waiter count or grant left behind
        $this->assertSame(['counter'], $this->client->keys('*'));
    }
}
