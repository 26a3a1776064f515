<?php
/*
 * RLock::multi across processes: money moved between accounts, each transfer locking its
 * two accounts in random order, never changes the total and never deadlocks; multi locks
 * and plain locks on one of their keys exclude each other and are both served.
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit -c tests/phpunit/phpunit.xml --filter MultiLockTest
 */

declare(strict_types=1);

final class MultiLockTest extends OneServerTestCase
{
    private const ACCOUNTS = 10;
    private const OPENING = 1000;

    /**
     * Transfers for cfg.seconds: two distinct accounts, locked by one RLock::multi named in
     * random order; read both balances, let others run, write both back. A lock() that
     * times out is a failure (a deadlock would be one).
     */
    private const TRANSFERS = <<<'PHP'
        [, $cfg] = $argv;
        $cfg = json_decode($cfg, true);
        $r = new Redis();
        $r->connect('127.0.0.1', $cfg['port']);
        $r->blPop(['go'], 30);
        $end = microtime(true) + $cfg['seconds'];
        $done = $failures = 0;
        while (microtime(true) < $end) {
            $from = random_int(0, $cfg['accounts'] - 1);
            $to = ($from + random_int(1, $cfg['accounts'] - 1)) % $cfg['accounts'];
            $keys = random_int(0, 1) ? ["acct:$from", "acct:$to"] : ["acct:$to", "acct:$from"];
            $l = RLock::multi($keys, $cfg['opts']);
            if (!$l->lock()) {
                $failures++;
                continue;
            }
            $a = (int) $r->get("balance:$from");
            $b = (int) $r->get("balance:$to");
            $amount = random_int(0, $a);
            usleep(random_int(0, 200));
            $r->set("balance:$from", (string) ($a - $amount));
            $r->set("balance:$to", (string) ($b + $amount));
            if (!$l->unlock()) {
                $failures++;
            }
            $done++;
        }
        echo json_encode(['done' => $done, 'failures' => $failures]), "\n";
        PHP;

    /**
     * For cfg.seconds, takes cfg.keys (one: a plain RLock; more: RLock::multi) and checks it
     * is alone in there: an "inside:" counter of each key is 1 while it holds it.
     */
    private const MIXED = <<<'PHP'
        [, $cfg] = $argv;
        $cfg = json_decode($cfg, true);
        $r = new Redis();
        $r->connect('127.0.0.1', $cfg['port']);
        $l = count($cfg['keys']) === 1 ? new RLock($cfg['keys'][0], $cfg['opts']) : RLock::multi($cfg['keys'], $cfg['opts']);
        $r->blPop(['go'], 30);
        $end = microtime(true) + $cfg['seconds'];
        $done = $failures = $overlaps = 0;
        while (microtime(true) < $end) {
            if (!$l->lock()) {
                $failures++;
                continue;
            }
            foreach ($cfg['keys'] as $k) {
                $overlaps += $r->incr("inside:$k") !== 1;
            }
            usleep(random_int(100, 1000));
            foreach ($cfg['keys'] as $k) {
                $r->decr("inside:$k");
            }
            $failures += !$l->unlock();
            $done++;
        }
        echo json_encode(['done' => $done, 'failures' => $failures, 'overlaps' => $overlaps]), "\n";
        PHP;

    private function options(array $more = []): array
    {
        return $more + ['server' => $this->redis->dsn(), 'prefix' => 'bank:', 'ttl' => 10000, 'wait' => 10000];
    }

    /** Start $n workers of $code with $cfgs[i], let them go at once; their reports. */
    private function runWorkers(string $code, array $cfgs, float $seconds): array
    {
        $procs = [];
        foreach ($cfgs as $cfg) {
            $procs[] = Processes::start($code, [json_encode($cfg + ['port' => $this->redis->port, 'seconds' => $seconds])]);
        }
        $this->await(fn() => (int) $this->client->info('clients')['blocked_clients'] === count($cfgs), 'the workers all started', 20);
        $this->client->rPush('go', ...array_fill(0, count($cfgs), '1'));
        $reports = [];
        foreach ($procs as $i => [$proc, $pipes]) {
            $line = Processes::readLine($pipes, $seconds + 30);
            [$code, , $err] = Processes::finish($proc, $pipes);
            $this->assertSame(0, $code, "worker $i: $err");
            $reports[$i] = json_decode($line, true);
            $this->assertIsArray($reports[$i], "worker $i: $line $err");
        }
        return $reports;
    }

    public function testTransfersInRandomOrderKeepTheTotalAndNeverDeadlock(): void
    {
        for ($i = 0; $i < self::ACCOUNTS; $i++) {
            $this->client->set("balance:$i", (string) self::OPENING);
        }
        $cfg = ['accounts' => self::ACCOUNTS, 'opts' => $this->options()];
        $reports = $this->runWorkers(self::TRANSFERS, array_fill(0, 16, $cfg), 10);

        $total = 0;
        for ($i = 0; $i < self::ACCOUNTS; $i++) {
            $total += (int) $this->client->get("balance:$i");
        }
        $this->assertSame(self::ACCOUNTS * self::OPENING, $total, 'money was made or lost');
        foreach ($reports as $i => $r) {
            $this->assertSame(0, $r['failures'], "worker $i timed out or lost a lock: a deadlock?");
            $this->assertGreaterThan(0, $r['done'], "worker $i never got its accounts");
        }
        // every lock given back
        $this->assertSame([], $this->client->keys('bank:acct:*'));
    }

    public function testOppositeOrdersNeverDeadlock(): void
    {
        $opts = $this->options(['wait' => 5000]);
        $reports = $this->runWorkers(self::MIXED, [
            ['keys' => ['a', 'b', 'c'], 'opts' => $opts],
            ['keys' => ['c', 'b', 'a'], 'opts' => $opts],
            ['keys' => ['b', 'c', 'a'], 'opts' => $opts],
        ], 1);
        foreach ($reports as $i => $r) {
            $this->assertSame(['failures' => 0, 'overlaps' => 0], ['failures' => $r['failures'], 'overlaps' => $r['overlaps']], "worker $i");
            $this->assertGreaterThan(0, $r['done'], "worker $i");
        }
    }

    public function testMultiAndPlainLocksExcludeEachOtherAndAreBothServed(): void
    {
        foreach ([true, false] as $fair) {
            $opts = $this->options(['wait' => 5000, 'fair' => $fair]);
            $reports = $this->runWorkers(self::MIXED, [
                ['keys' => ['a'], 'opts' => $opts],
                ['keys' => ['a'], 'opts' => $opts],
                ['keys' => ['a', 'b'], 'opts' => $opts],
                ['keys' => ['b', 'a'], 'opts' => $opts],
            ], 2);
            foreach ($reports as $i => $r) {
                $this->assertSame(['failures' => 0, 'overlaps' => 0], ['failures' => $r['failures'], 'overlaps' => $r['overlaps']],
                    "worker $i, fair " . var_export($fair, true));
                $this->assertGreaterThan(0, $r['done'], "worker $i was never served, fair " . var_export($fair, true));
            }
        }
    }
}
