<?php
/*
 * RReadWriteLock across processes: readers overlap while writers are alone, a writer waiting
 * behind a stream of readers gets in within about one reader's hold, and a reader whose
 * request dies lets the waiting writer in at once. Under SIGKILLs and dropped connections no
 * writer is ever beside anyone; a lost acquire reply or a waiter killed in the queue holds
 * the others up a second or its own round, never a lease.
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit -c tests/phpunit/phpunit.xml --filter ReadWriteLockTest
 */

declare(strict_types=1);

use PHPUnit\Framework\Attributes\DataProvider;

final class ReadWriteLockTest extends OneServerTestCase
{
    protected const REPORT_SECONDS = 60;
    /** Generous: what a round trip or a timer tick may take on a loaded 2-core machine. */
    private const SLACK_MS = 1500;
    /** How long a waiting mark outlives its round (src/primitives/rwlock.c, WAIT_MARK_MS). */
    private const MARK_MS = 1000;

    /** What every child starts with: its config ($cfg), a Redis client ($r), the side it takes ($side). */
    private const SIDE = <<<'PHP'
        [, $cfg] = $argv;
        $cfg = json_decode($cfg, true);
        $r = new Redis();
        $r->connect('127.0.0.1', $cfg['port']);
        $rw = new RReadWriteLock('stock', $cfg['opts']);
        $side = $cfg['write'] ? $rw->writeLock() : $rw->readLock();
        PHP . "\n";

    /**
     * A worker: waits for the start signal, then takes its side sections times; inside, it
     * counts itself in ("in:read" or "in:write") and checks who else is in: a writer must be
     * alone, a reader with no writer. Writers also add one to a read-modify-write counter.
     */
    private const WORKER = self::SIDE . <<<'PHP'
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

    /** Takes a side (waiting up to wait ms), reports how long it waited. */
    private const WAITER = self::SIDE . <<<'PHP'
        if (!empty($cfg['gate'])) {
            echo "ready\n";
            $r->blPop(['go'], 30);
        }
        echo "waiting\n";
        $t0 = microtime(true);
        $got = $side->lock($cfg['wait']);
        echo json_encode(['got' => $got, 'ms' => (microtime(true) - $t0) * 1000]), "\n";
        $got && $side->unlock();
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
            $stream[] = $this->start(self::STREAM, ['write' => false, 'offset' => $offset, 'hold' => $hold, 'wait' => 20000,
                'opts' => $this->options()]);
        }
        $this->await(fn() => $this->readers() >= 2, 'the readers overlap');
        $w = $this->start(self::WAITER, ['write' => true, 'wait' => 10000, 'opts' => $this->options()]);
        $this->assertSame('waiting', Processes::readLine($this->children[$w][1], 20));
        $r = $this->report($w, 20);
        $this->client->set('stop', '1');
        $this->assertTrue($r['got'], 'the writer starved behind the readers');
        // it waits for the readers in when it came, one hold at most, plus its own start and a
        // loaded machine's slack (starved, it would wait its whole 10 s: some reader is always in)
        $this->assertLessThan($hold + self::SLACK_MS, $r['ms'], 'the writer waited longer than the readers it found');
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
        $w = $this->start(self::WAITER, ['write' => true, 'wait' => 20000, 'opts' => $this->options()]);
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

    /**
     * A side taken again and again (hold ms each time, gap ms between, after offset ms) until
     * "stop" is set, each lock() timed; an RLockConnectionException (its connection dropped)
     * is counted and the loop goes on. Reports sections, errors, timeouts and the longest
     * lock() in ms.
     */
    private const STREAM = self::SIDE . <<<'PHP'
        usleep($cfg['offset'] * 1000);
        $st = ['sections' => 0, 'errors' => 0, 'timeouts' => 0, 'longest' => 0];
        for ($end = microtime(true) + 30; !$r->get('stop') && microtime(true) < $end;) {
            $t = microtime(true);
            try {
                $got = $side->lock($cfg['wait']);
            } catch (RLockConnectionException $e) {
                $st['errors']++;
                continue;
            } finally {
                $st['longest'] = max($st['longest'], (int) ((microtime(true) - $t) * 1000));
            }
            if (!$got) {
                $st['timeouts']++;
                continue;
            }
            usleep($cfg['hold'] * 1000);
            $side->unlock();
            $st['sections']++;
            usleep(($cfg['gap'] ?? 0) * 1000);
        }
        echo json_encode($st), "\n";
        PHP;

    /**
     * The kill hammer's worker: sections on its side until "stop" is set, each checked by the
     * witness script ENTER; connection errors (a CLIENT KILL) counted, and lock() calls that
     * returned past their wait + late ms.
     */
    private const HAMMERED = self::SIDE . <<<'PHP'
        $r->select(1);  // the witness' db: the killer drops db 0's clients, rlock's
        echo "ready\n";
        $r->blPop(['go'], 30);
        $st = ['sections' => 0, 'errors' => 0, 'timeouts' => 0, 'late' => 0];
        for ($i = 0; !$r->get('stop'); $i++) {
            $t = microtime(true);
            try {
                $got = $side->lock($cfg['wait']);
                if ((microtime(true) - $t) * 1000 > $cfg['wait'] + $cfg['late']) {
                    $st['late']++;
                }
                if (!$got) {
                    $st['timeouts']++;
                    continue;
                }
                $me = getmypid() . ":$i:" . ($cfg['write'] ? 'w' : 'r');
                $r->eval($cfg['enter'], ['inside', 'violations', $me, 200], 2);
                usleep(random_int(0, 2000));
                $r->zRem('inside', $me);
                $side->unlock();
                $st['sections']++;
            } catch (RLockConnectionException $e) {
                $st['errors']++;
            }
        }
        echo json_encode($st), "\n";
        PHP;

    /**
     * The witness: KEYS inside, violations; ARGV member (pid:i:side), ms. Who is inside is a
     * sorted set of members scored with when they stop counting (a SIGKILLed holder never
     * leaves; it stops counting long before its lease ends); a writer beside anyone, or a
     * reader beside a writer, is counted as a violation.
     */
    private const ENTER = <<<'LUA'
        local t = redis.call('time')
        local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        redis.call('zremrangebyscore', KEYS[1], '-inf', now)
        local writer = string.sub(ARGV[1], -1) == 'w'
        for _, m in ipairs(redis.call('zrange', KEYS[1], 0, -1)) do
            if writer or string.sub(m, -1) == 'w' then redis.call('incr', KEYS[2]) break end
        end
        redis.call('zadd', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
        LUA;

    /** @return array<string, array{0: bool}> which side's acquire or waiter fails: the write side, the read side */
    public static function sides(): array
    {
        return ['writer' => [true], 'reader' => [false]];
    }

    /**
     * Two streams of the other side's holders, and one process of this side whose connection
     * drops at the reply of a lock() that got in at its first try (Redis let it in; it is
     * told nothing, and throws): its next lock() is the one Redis let in, and nobody waits
     * for that hold's lease (30 s).
     */
    /** @dataProvider sides */
    #[DataProvider('sides')]
    public function testLostAcquireReplyCostsNoLease(bool $write): void
    {
        require_once dirname(__DIR__) . '/cut_relay.inc';
        $last = '';
        // {1, token, fence} right after an unlock's reply (a lock()'s first try: a reply lost
        // in a later round of the same lock() is tried again there), or after a grant popped
        $relay = rlock_cut_relay($this->redis->port, function (string $chunk) use (&$last) {
            $after = $last;
            $last = $chunk;
            return str_starts_with($chunk, "*3\r\n:1\r\n\$32\r\n")
                && ($after === ":1\r\n" || str_contains($after, ":wgrants\r\n")) ? 0 : null;
        });
        $opts = $this->options(['ttl' => 30000, 'retry_delay' => 20]);
        $others = [];
        foreach ([0, 50] as $offset) {
            $others[] = $this->start(self::STREAM, ['write' => !$write, 'offset' => $offset, 'hold' => $write ? 100 : 50,
                'gap' => 150, 'wait' => 20000, 'opts' => $opts]);
        }
        // it finds the others in at times, and waits: the relay cuts only a connection that sent a BLPOP
        $cut = $this->start(self::STREAM, ['write' => $write, 'offset' => 100, 'hold' => 20, 'gap' => 100,
            'wait' => 20000, 'opts' => ['server' => $relay['dsn'], 'read_timeout' => 5000] + $opts]);
        $this->await($relay['cut'], 'the relay dropped a win\'s reply', 20);
        $dropped = microtime(true);
        // the lease it took would end 30 s on: 3 s of streaming after the drop show it held nobody up
        $this->await(fn () => microtime(true) > $dropped + 3, 'three seconds passed', 5);
        $this->client->set('stop', '1');
        $r = $this->report($cut, 30);
        $this->assertSame(1, $r['errors'], 'the dropped reply: ' . json_encode($r));
        $this->assertSame(0, $r['timeouts'], json_encode($r));
        $this->assertLessThan(self::SLACK_MS * 2, $r['longest'], 'it waited for its own lost hold: ' . json_encode($r));
        $this->assertGreaterThan(1, $r['sections'], json_encode($r));
        foreach ($others as $i) {
            $o = $this->report($i, 30);
            $this->assertSame(0, $o['timeouts'] + $o['errors'], json_encode($o));
            $this->assertLessThan(self::SLACK_MS * 2, $o['longest'], 'a lost hold held the others up: ' . json_encode($o));
        }
    }

    /**
     * A stream of the other side's holders, and one waiter of this side SIGKILLed in the
     * queue while its waiting mark lives: a release lets it in all the same, and the others
     * wait for it no longer than its round (its wait) plus a second, never a lease (30 s).
     */
    /** @dataProvider sides */
    #[DataProvider('sides')]
    public function testWaiterKilledInTheQueueCostsNoLease(bool $write): void
    {
        $opts = $this->options(['ttl' => 30000]);
        $others = [];
        foreach ([0, 50, 100] as $offset) {
            $others[] = $this->start(self::STREAM, ['write' => !$write, 'offset' => $offset, 'hold' => $write ? 100 : 30,
                'wait' => 20000, 'opts' => $opts]);
        }
        $this->await(fn () => $write ? $this->readers() >= 1 : $this->client->exists('}{rw:stock}:write') === 1,
            'the stream is in');
        $wait = 1500;
        // the stream's holds are 30 ms, and the waiter would be let in at the next release,
        // before a loaded machine's next look at the marks: a hold of ours on the other side
        // keeps it waiting until it is killed (taken once the waiter is up, and short: the
        // stream waits behind it too)
        $w = $this->start(self::WAITER, ['write' => $write, 'wait' => $wait, 'opts' => $opts, 'gate' => true]);
        $this->assertSame('ready', Processes::readLine($this->children[$w][1], 20));
        $rw = new RReadWriteLock('stock', $opts);
        $ours = $write ? $rw->readLock() : $rw->writeLock();
        $this->assertTrue($ours->lock());
        $this->client->rPush('go', '1');
        $marks = '}{rw:stock}:' . ($write ? 'writers' : 'readers');
        $pid = proc_get_status($this->children[$w][0])['pid'];
        // (the stream's own waiters mark the other set)
        $this->await(fn () => $this->client->zCard($marks) === 1, 'the waiter is marked', 10);
        posix_kill($pid, SIGKILL);
        $killed = microtime(true);
        $this->assertTrue($ours->unlock());
        // its round (its wait) plus the mark's second have passed, and more: the stream went on
        $this->await(fn () => microtime(true) > $killed + ($wait + self::MARK_MS) / 1000 + 2, 'its round passed', 10);
        $this->client->set('stop', '1');
        foreach ($others as $i) {
            $o = $this->report($i, 30);
            $this->assertSame(0, $o['timeouts'] + $o['errors'], json_encode($o));
            // nobody waited past the dead waiter's round + its mark's second
            $this->assertLessThan($wait + self::MARK_MS + self::SLACK_MS, $o['longest'],
                'the dead waiter held the others up: ' . json_encode($o));
            $this->assertGreaterThan(0, $o['sections']);
        }
        $this->assertFalse(Processes::alive($pid));
    }

    /**
     * 6 readers and 3 writers under SIGKILLs (holding or waiting) and dropped connections
     * (CLIENT KILL: replies lost on the way, waiters cut off): never a writer beside anyone
     * by an independent witness, no lock() returns past its wait, and once the faults stop
     * every key is gone within the leases.
     */
    public function testExclusionUnderKillsAndDroppedConnections(): void
    {
        $ttl = 1000;
        $wait = 2000;
        $n = 9;
        $cfg = ['port' => $this->redis->port, 'wait' => $wait, 'late' => self::SLACK_MS, 'enter' => self::ENTER,
            'opts' => $this->options(['ttl' => $ttl, 'wait' => $wait, 'retry_delay' => 20])];
        for ($i = 0; $i < $n; $i++) {
            $this->children[] = Processes::start(self::HAMMERED, [json_encode($cfg + ['write' => $i % 3 === 0])]);
        }
        foreach ($this->children as [, $pipes]) {
            $this->assertSame('ready', Processes::readLine($pipes, 30));
        }
        $witness = $this->redis->client();
        $witness->select(1);
        $witness->rPush('go', ...array_fill(0, $n, '1'));
        $me = $this->client->rawCommand('CLIENT', 'ID');
        $killed = [];
        $drops = 0;
        for ($end = microtime(true) + 4; microtime(true) < $end;) {
            usleep(random_int(50000, 150000));
            if (random_int(0, 3) === 0 && count($killed) < 3) {
                $i = random_int(0, $n - 1);
                if (!isset($killed[$i])) {
                    posix_kill(proc_get_status($this->children[$i][0])['pid'], SIGKILL);
                    $killed[$i] = true;
                }
                continue;
            }
            // a connection of rlock's (db 0), but ours: dropped between two commands
            $ids = [];
            foreach ($this->client->client('list') as $c) {
                if ((int) $c['db'] === 0 && (int) $c['id'] !== $me) {
                    $ids[] = $c['id'];
                }
            }
            if ($ids) {
                $this->client->rawCommand('CLIENT', 'KILL', 'ID', $ids[array_rand($ids)]);
                $drops++;
            }
        }
        $witness->set('stop', '1');
        $sum = ['sections' => 0, 'errors' => 0, 'timeouts' => 0, 'late' => 0];
        foreach ($this->children as $i => [, $pipes]) {
            if (isset($killed[$i])) {
                continue;
            }
            $st = json_decode(Processes::readLine($pipes, 30), true);
            $this->assertIsArray($st, "worker $i: " . stream_get_contents($pipes[2]));
            $this->assertGreaterThan(0, $st['sections'], "worker $i never got in: " . json_encode($st));
            foreach ($st as $k => $v) {
                $sum[$k] += $v;
            }
        }
        $this->assertGreaterThan(0, count($killed));
        $this->assertGreaterThan(0, $drops);
        $this->assertSame('0', (string) ($witness->get('violations') ?: '0'), 'a writer was in beside someone: ' . json_encode($sum));
        $this->assertSame(0, $sum['late'], 'a lock() returned past its wait: ' . json_encode($sum));
        // the killed holders' leases, the dead waiters' marks and grants end: nothing is left
        // (but waiters' own lists, which live 10 s)
        $keys = array_map(fn ($role) => "}{rw:stock}:$role", ['write', 'read', 'writers', 'readers', 'wgrants', 'rwake']);
        $this->await(fn () => $this->client->exists(...$keys) === 0, 'every key of the lock is gone',
            ($ttl + $wait + 2 * self::MARK_MS + self::SLACK_MS) / 1000, fn () => json_encode($this->client->keys('*')));
    }
}
