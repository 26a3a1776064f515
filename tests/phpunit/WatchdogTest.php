<?php

use PHPUnit\Framework\TestCase;

/**
 * The watchdog across processes: a holder whose work outlives its ttl keeps the lock, one
 * that stalls (SIGSTOP) loses it and learns so, one that dies (SIGKILL) frees it within a
 * ttl, a fork child renews none of its parent's locks, and 1,000 locks cost one round trip
 * per renewal period.
 */
final class WatchdogTest extends TestCase
{
    /** Takes "job", prints "locked", works $argv[3] ms, prints what unlock() and lost() said. */
    private const HOLDER = <<<'PHP'
        [, $dsn, $options, $workMs] = $argv;
        $l = new RLock('job', ['server' => $dsn] + json_decode($options, true));
        if (!$l->tryLock()) {
            echo "busy\n";
            exit(1);
        }
        echo "locked\n";
        $end = hrtime(true) + (int) $workMs * 1000000;
        while (hrtime(true) < $end) {
            usleep(10000);
        }
        echo json_encode(['unlock' => $l->unlock(), 'lost' => $l->lost()]), "\n";
        PHP;

    private RedisServer $redis;

    protected function setUp(): void
    {
        $this->redis = new RedisServer();
    }

    protected function tearDown(): void
    {
        $this->redis->stop();
    }

    private function options(array $more = []): array
    {
        return $more + ['server' => $this->redis->dsn()];
    }

    /** Poll tryLock() on "job" every 20 ms for $seconds: how many polls took it, of how many. */
    private function poll(float $seconds): array
    {
        $other = new RLock('job', $this->options(['ttl' => 300]));
        $taken = $polls = 0;
        $end = microtime(true) + $seconds;
        while (microtime(true) < $end) {
            if ($other->tryLock()) {
                $taken++;
                $other->unlock();
            }
            $polls++;
            usleep(20000);
        }
        return [$taken, $polls];
    }

    /** Milliseconds until tryLock() on "job" succeeds (the lock is then ours), at most $max. */
    private function msUntilFree(RLock $other, int $max): float
    {
        $start = hrtime(true);
        while (!$other->tryLock()) {
            if ((hrtime(true) - $start) / 1e6 > $max) {
                return INF;
            }
            usleep(5000);
        }
        return (hrtime(true) - $start) / 1e6;
    }

    public function testWatchdogKeepsTheLockThroughWorkLongerThanTheTtl(): void
    {
        [$p, $pipes] = Processes::start(self::HOLDER,
            [$this->redis->dsn(), json_encode(['ttl' => 300, 'watchdog' => true]), 2000]);
        $this->assertSame('locked', Processes::readLine($pipes));
        [$taken, $polls] = $this->poll(1.8);
        [$code, $out, $err] = Processes::finish($p, $pipes);

        $this->assertSame(0, $taken, "a second process took the lock $taken times in $polls polls");
        $this->assertGreaterThan(40, $polls);
        $this->assertSame(0, $code, $err);
        $this->assertSame(['unlock' => true, 'lost' => false], json_decode($out, true));
    }

    public function testWithoutTheWatchdogTheLeaseRunsOut(): void
    {
        [$p, $pipes] = Processes::start(self::HOLDER,
            [$this->redis->dsn(), json_encode(['ttl' => 300, 'watchdog' => false]), 2000]);
        $this->assertSame('locked', Processes::readLine($pipes));
        [$taken] = $this->poll(1.8);
        [$code, $out, $err] = Processes::finish($p, $pipes);

        $this->assertGreaterThan(0, $taken);
        $this->assertSame(0, $code, $err);
        $this->assertSame(['unlock' => false, 'lost' => true], json_decode($out, true));
    }

    public function testAStoppedHolderLosesTheLockAndSynchronizedThrowsWithTheResult(): void
    {
        $code = <<<'PHP'
            $l = new RLock('job', ['server' => $argv[1], 'ttl' => 300, 'watchdog' => true]);
            try {
                $l->synchronized(function () {
                    echo "in\n";
                    $end = hrtime(true) + 1500000000;
                    while (hrtime(true) < $end) {
                        usleep(10000);
                    }
                    return ['the' => 'result'];
                });
                echo json_encode(['thrown' => null]), "\n";
            } catch (RLockLostException $e) {
                echo json_encode(['thrown' => get_class($e), 'result' => $e->getResult(), 'lost' => $l->lost(),
                    'isAcquired' => $l->isAcquired()]), "\n";
            }
            PHP;
        [$p, $pipes] = Processes::start($code, [$this->redis->dsn()]);
        $this->assertSame('in', Processes::readLine($pipes));
        $pid = proc_get_status($p)['pid'];

        posix_kill($pid, SIGSTOP);
        $other = new RLock('job', $this->options(['ttl' => 10000]));
        $ms = $this->msUntilFree($other, 2000);
        usleep(300000);  // stopped well past the ttl
        posix_kill($pid, SIGCONT);
        [$exit, $out, $err] = Processes::finish($p, $pipes);

        $this->assertLessThan(1000, $ms, 'the stopped holder\'s lease ran out');
        $this->assertSame(0, $exit, $err);
        $this->assertSame(['thrown' => 'RLockLostException', 'result' => ['the' => 'result'], 'lost' => true,
            'isAcquired' => false], json_decode($out, true));
        // the woken holder's watchdog renewed nothing of the new owner's
        $this->assertTrue($other->isAcquired());
        $this->assertGreaterThan(8000, $other->ttl());
        $this->assertTrue($other->unlock());
    }

    public function testAKilledHolderFreesTheLockWithinOneTtl(): void
    {
        [$p, $pipes] = Processes::start(self::HOLDER,
            [$this->redis->dsn(), json_encode(['ttl' => 1000, 'watchdog' => true]), 30000]);
        $this->assertSame('locked', Processes::readLine($pipes));
        usleep(1500000);
        $other = new RLock('job', $this->options(['ttl' => 1000]));
        $this->assertFalse($other->tryLock(), 'renewed past its ttl while alive');

        posix_kill(proc_get_status($p)['pid'], SIGKILL);
        $ms = $this->msUntilFree($other, 5000);
        Processes::finish($p, $pipes);

        $this->assertLessThanOrEqual(1000 + 300, $ms, 'freed within one ttl of the kill');
        $other->unlock();
    }

    public function testAForkChildRenewsNoneOfItsParentsLocks(): void
    {
        // The parent holds, forks a child that lives on, and is killed: were the child renewing
        // the parent's lock, the lock would outlive the parent.
        $code = <<<'PHP'
            $l = new RLock('job', ['server' => $argv[1], 'ttl' => 600, 'watchdog' => true]);
            $l->tryLock();
            $child = pcntl_fork();
            if ($child === 0) {
                $end = hrtime(true) + 20000000000;
                while (hrtime(true) < $end) {
                    usleep(10000);
                }
                exit(0);
            }
            echo getmypid(), ' ', $child, "\n";
            $end = hrtime(true) + 20000000000;
            while (hrtime(true) < $end) {
                usleep(10000);
            }
            PHP;
        [$p, $pipes] = Processes::start($code, [$this->redis->dsn()]);
        [$parent, $child] = array_map('intval', explode(' ', Processes::readLine($pipes)));
        try {
            usleep(1500000);
            $r = $this->redis->client();
            $this->assertGreaterThan(0, $r->pttl('rlock:job'), 'the parent renews while the child lives');
            $token = $r->get('rlock:job');

            posix_kill($parent, SIGKILL);
            $other = new RLock('job', $this->options(['ttl' => 1000]));
            $ms = $this->msUntilFree($other, 3000);
            $this->assertTrue(posix_kill($child, 0), 'the child still lives');
            $this->assertLessThanOrEqual(600 + 300, $ms, 'the child did not renew the parent\'s lock');
            $this->assertNotSame($token, $other->token());
            $other->unlock();
        } finally {
            posix_kill($child, SIGKILL);
            posix_kill($parent, SIGKILL);
            Processes::finish($p, $pipes);
        }
    }

    public function testAThousandLocksAreRenewedInOneRoundTripPerPeriod(): void
    {
        $code = <<<'PHP'
            $locks = [];
            for ($i = 0; $i < 1000; $i++) {
                $locks[$i] = new RLock("k$i", ['server' => $argv[1], 'ttl' => 3000, 'watchdog' => true]);
                $locks[$i]->tryLock() or exit(1);
            }
            echo "ready\n";
            fgets(STDIN);  // until the test has measured
            ob_start();
            phpinfo(INFO_MODULES);
            preg_match_all('/^(Watchdog [^=]*) => (.*)$/m', ob_get_clean(), $m);
            echo json_encode(array_combine($m[1], $m[2])), "\n";
            PHP;
        $cmd = array_merge(Processes::php(), ['-r', $code, '--', $this->redis->dsn()]);
        $p = proc_open($cmd, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        $this->assertSame('ready', Processes::readLine($pipes, 30));

        $r = $this->redis->client();
        $scripts = function () use ($r): int {
            $n = 0;
            foreach ($r->info('commandstats') as $cmd => $stats) {
                if ($cmd === 'cmdstat_evalsha' || $cmd === 'cmdstat_eval') {
                    preg_match('/calls=(\d+)/', $stats, $m);
                    $n += (int) $m[1];
                }
            }
            return $n;
        };
        usleep(1500000);  // past the first renewal, which also teaches the server the script
        $before = $scripts();
        usleep(6000000);  // six periods of ttl/3 = 1 s
        $trips = $scripts() - $before;
        $alive = 0;
        for ($i = 0; $i < 1000; $i++) {
            $alive += $r->pttl("rlock:k$i") > 0 ? 1 : 0;
        }
        fwrite($pipes[0], "done\n");
        fclose($pipes[0]);
        $stats = json_decode(Processes::readLine($pipes, 10), true);
        Processes::finish($p, $pipes);

        fwrite(STDERR, sprintf("\n[watchdog] 1000 locks, ttl 3000 ms, 6 s: %d script calls; holder: %s\n",
            $trips, json_encode($stats)));
        $this->assertSame(1000, $alive, 'every lease renewed past its ttl');
        $this->assertGreaterThanOrEqual(5, $trips);
        $this->assertLessThanOrEqual(7, $trips, 'one round trip per period for all 1000 locks');
        $this->assertSame('0', $stats['Watchdog locks found lost']);
    }

    public function testRenewalStopsAtTheEndOfTheRequestInALongLivedProcess(): void
    {
        // php -S serves request after request in one process, as php-fpm does.
        $dir = sys_get_temp_dir() . '/rlock-wd-' . bin2hex(random_bytes(4));
        mkdir($dir);
        file_put_contents("$dir/index.php", <<<'PHP'
            <?php
            $l = new RLock($_GET['key'], ['server' => $_GET['dsn'], 'ttl' => 300, 'watchdog' => true,
                'auto_release' => false]);
            $l->tryLock();
            usleep((int) $_GET['work'] * 1000);
            echo json_encode(['token' => $l->token(), 'held' => $l->isAcquired()]);
            PHP);
        $port = RedisServer::freePort();
        $cmd = array_merge(Processes::php(), ['-S', "127.0.0.1:$port", '-t', $dir]);
        $p = proc_open($cmd, [0 => ['pipe', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        try {
            $get = function (string $key, int $work) use ($port): array {
                $url = "http://127.0.0.1:$port/?" . http_build_query(['key' => $key, 'dsn' => $this->redis->dsn(), 'work' => $work]);
                for ($i = 0; $i < 100; $i++) {
                    $body = @file_get_contents($url);
                    if ($body !== false) {
                        return json_decode($body, true);
                    }
                    usleep(50000);
                }
                $this->fail('php -S did not answer');
            };
            $r = $this->redis->client();

            // renewed while the request runs, past its ttl
            $first = $get('a', 1000);
            $this->assertTrue($first['held']);
            // not renewed once the request is over, though the process lives on
            $this->assertSame($first['token'], $r->get('rlock:a'));
            usleep(600000);
            $this->assertFalse($r->exists('rlock:a') > 0, 'renewed after its request ended');

            // the next request of the same process renews its own
            $second = $get('b', 1000);
            $this->assertTrue($second['held']);
            $this->assertTrue(proc_get_status($p)['running']);
        } finally {
            proc_terminate($p);
            proc_close($p);
            array_map('unlink', glob("$dir/*"));
            rmdir($dir);
        }
    }

    public function testARedisRestartMarksTheLockLost(): void
    {
        $code = <<<'PHP'
            $l = new RLock('job', ['server' => $argv[1], 'ttl' => 600, 'watchdog' => true]);
            try {
                $l->synchronized(function (RLock $l) {
                    echo "in\n";
                    $end = hrtime(true) + 5000000000;
                    while (!$l->lost() && hrtime(true) < $end) {
                        usleep(10000);
                    }
                    echo $l->lost() ? "lost\n" : "not lost\n";
                    return 7;
                });
            } catch (RLockLostException $e) {
                echo get_class($e), ' ', $e->getResult(), "\n";
            }
            PHP;
        [$p, $pipes] = Processes::start($code, [$this->redis->dsn()]);
        $this->assertSame('in', Processes::readLine($pipes));
        // every key gone (a new server on the same port: RedisServer::restart() cannot
        // assign its readonly port again)
        $port = $this->redis->port;
        $this->redis->stop();
        $this->redis = new RedisServer([], $port);
        $this->assertSame('lost', Processes::readLine($pipes, 5));
        [$exit, $out, $err] = Processes::finish($p, $pipes);
        $this->assertSame(0, $exit, $err);
        $this->assertSame("RLockLostException 7\n", $out);
    }
}
