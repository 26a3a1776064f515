<?php
/*
 * RReadWriteLock across processes: readers overlap while writers are alone, a writer waiting
 * behind a stream of readers gets in within about one reader's hold, and a reader whose
 * request dies lets the waiting writer in at once.
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit -c tests/phpunit/phpunit.xml --filter ReadWriteLockTest
 */

declare(strict_types=1);

final class ReadWriteLockTest extends OneServerTestCase
{
    protected const REPORT_SECONDS = 60;

    /**
     * A worker: waits for the start signal, then takes its side sections times; inside, it
     * counts itself in ("in:read" or "in:write") and checks who else is in: a writer must be
     * alone, a reader with no writer. Writers also add one to a read-modify-write counter.
     */
    private const WORKER = <<<'PHP'
        [, $cfg] = $argv;
        $cfg = json_decode($cfg, true);
        $r = new Redis();
        $r->connect('127.0.0.1', $cfg['port']);
        $rw = new RReadWriteLock('stock', $cfg['opts']);
        $side = $cfg['write'] ? $rw->writeLock() : $rw->readLock();
        $r->blPop(['go'], 30);
        $bad = $failures = $overlap = 0;
        for ($i = 0; $i < $cfg['sections']; $i++) {
            if (!$side->lock()) {
                $failures++;
                continue;
            }
            if ($cfg['write']) {
                $bad += $r->incr('in:write') !== 1 || (int) $r->get('in:read') !== 0;
                $v = (int) $r->get('counter');
                usleep(random_int(0, 300));
                $r->set('counter', (string) ($v + 1));
                $r->decr('in:write');
            } else {
                $overlap = max($overlap, $r->incr('in:read'));
                $bad += (int) $r->get('in:write') !== 0;
                usleep(random_int(0, 1000));
                $r->decr('in:read');
            }
            $failures += !$side->unlock();
        }
        echo json_encode(['bad' => $bad, 'failures' => $failures, 'overlap' => $overlap]), "\n";
        PHP;

    /** A reader that takes the read side again and again, holding it hold ms each time, until "stop" is set. */
    private const STREAM_READER = <<<'PHP'
        [, $cfg] = $argv;
        $cfg = json_decode($cfg, true);
        $r = new Redis();
        $r->connect('127.0.0.1', $cfg['port']);
        $read = (new RReadWriteLock('stock', $cfg['opts']))->readLock();
        usleep($cfg['offset'] * 1000);
        $n = 0;
        for ($end = microtime(true) + 20; !$r->get('stop') && microtime(true) < $end; $n++) {
            $read->lock(20000);
            usleep($cfg['hold'] * 1000);
            $read->unlock();
        }
        echo json_encode(['sections' => $n]), "\n";
        PHP;

    /** Takes the write side (waiting up to wait ms), reports how long it waited. */
    private const WRITER = <<<'PHP'
        [, $cfg] = $argv;
        $cfg = json_decode($cfg, true);
        $w = (new RReadWriteLock('stock', $cfg['opts']))->writeLock();
        echo "waiting\n";
        $t0 = microtime(true);
        $got = $w->lock($cfg['wait']);
        echo json_encode(['got' => $got, 'ms' => (microtime(true) - $t0) * 1000]), "\n";
        $got && $w->unlock();
        PHP;

    private function options(array $more = []): array
    {
        return $more + ['server' => $this->redis->dsn(), 'prefix' => 'rw:', 'ttl' => 10000, 'wait' => 60000];
    }

    private function start(string $code, array $cfg): int
    {
        $this->children[] = Processes::start($code, [json_encode($cfg + ['port' => $this->redis->port])]);
        return count($this->children) - 1;
    }

    private function readers(): int
    {
        return (int) $this->client->zCard('}{rw:stock}:read');
    }

    public function testReadersOverlapWritersAlone(): void
    {
        $readers = $writers = [];
        for ($i = 0; $i < 4; $i++) {
            $readers[] = $this->start(self::WORKER, ['write' => false, 'sections' => 150, 'opts' => $this->options()]);
        }
        for ($i = 0; $i < 2; $i++) {
            $writers[] = $this->start(self::WORKER, ['write' => true, 'sections' => 50, 'opts' => $this->options()]);
        }
        $this->await(fn() => (int) $this->client->info('clients')['blocked_clients'] === 6, 'the workers are ready', 20);
        $this->client->rPush('go', ...array_fill(0, 6, '1'));
        $overlap = 0;
        foreach (array_merge($readers, $writers) as $i) {
            $r = $this->report($i);
            $this->assertSame(0, $r['bad'], "worker $i saw a writer with someone else in");
            $this->assertSame(0, $r['failures'], "worker $i failed to lock or unlock");
            $overlap = max($overlap, $r['overlap']);
        }
        $this->assertSame('100', $this->client->get('counter'), 'the writers lost an update');
        $this->assertGreaterThanOrEqual(2, $overlap, 'readers never held the lock together');
    }

    public function testWriterNotStarvedByReaderStream(): void
    {
        $hold = 200;
        $stream = [];
        // three readers, staggered: from the first one's lock on, some reader is always in
        foreach ([0, 70, 140] as $offset) {
            $stream[] = $this->start(self::STREAM_READER, ['offset' => $offset, 'hold' => $hold, 'opts' => $this->options()]);
        }
        $this->await(fn() => $this->readers() >= 2, 'the readers overlap');
        $w = $this->start(self::WRITER, ['wait' => 10000, 'opts' => $this->options()]);
        $this->assertSame('waiting', Processes::readLine($this->children[$w][1], 20));
        $r = $this->report($w, 20);
        $this->client->set('stop', '1');
        $this->assertTrue($r['got'], 'the writer starved behind the readers');
        // it waits for the readers in when it came, one hold at most, plus its own start
        $this->assertLessThan(3 * $hold, $r['ms'], 'the writer waited longer than the readers it found');
        foreach ($stream as $i) {
            $this->assertGreaterThan(0, $this->report($i)['sections']);
        }
    }

    public function testReaderRequestDeathWakesWriter(): void
    {
        $code = <<<'PHP'
            [, $cfg] = $argv;
            $cfg = json_decode($cfg, true);
            $read = (new RReadWriteLock('stock', $cfg['opts']))->readLock();
            echo json_encode(['locked' => $read->lock()]), "\n";
            $r = new Redis();
            $r->connect('127.0.0.1', $cfg['port']);
            $r->blPop(['die'], 30);
            throw new RuntimeException('the request dies holding the read side');
            PHP;
        $reader = $this->start($code, ['opts' => $this->options(['ttl' => 30000])]);
        $this->assertTrue($this->report($reader)['locked']);
        $w = $this->start(self::WRITER, ['wait' => 20000, 'opts' => $this->options()]);
        $this->assertSame('waiting', Processes::readLine($this->children[$w][1]));
        $this->await(fn() => (int) $this->client->zCard('}{rw:stock}:writers') === 1
            && (int) $this->client->info('clients')['blocked_clients'] === 2, 'the writer waits');
        $this->client->rPush('die', '1');
        $r = $this->report($w, 20);
        $this->assertTrue($r['got']);
        $this->assertLessThan(5000, $r['ms'], 'the writer waited for the reader\'s lease, not its request end');
        $child = $this->children[$reader];
        unset($this->children[$reader]);
        [$code] = Processes::finish(...$child);
        $this->assertSame(255, $code, 'the reader died of its uncaught exception');
    }
}
