<?php
/* Swoole coroutines with the hooks on (CONTRACT 3.7, 8): a hold is the coroutine's, every
 * wait yields the coroutine, a coroutine's end releases what it holds. The scenarios run in
 * PHP processes that load Swoole (built once into a cache outside the project:
 * scripts/lib/swoole.sh; scripts/test.sh --swoole) beside rlock. */

declare(strict_types=1);

final class SwooleTest extends OneServerTestCase
{
    /** The hooks on, but curl's when PHP has no curl (Swoole warns of every function). */
    private const HOOKS = 'Swoole\Runtime::enableCoroutine(extension_loaded("curl") ? SWOOLE_HOOK_ALL'
        . ' : SWOOLE_HOOK_ALL & ~(SWOOLE_HOOK_CURL | SWOOLE_HOOK_NATIVE_CURL));';

    private static function swooleSo(): ?string
    {
        $so = getenv('RLOCK_SWOOLE_SO')
            ?: '/var/cache/rlock/swoole/' . PHP_MAJOR_VERSION . '.' . PHP_MINOR_VERSION . '/swoole.so';
        return is_file($so) ? $so : null;
    }

    protected function setUp(): void
    {
        if (self::swooleSo() === null) {
            $this->markTestSkipped('no Swoole built: scripts/test.sh --swoole builds it into /var/cache/rlock/swoole');
        }
        parent::setUp();
    }

    /** Start `php -r $code` with Swoole and rlock loaded (and the -d settings $ini); child $i,
     * the index returned. With $memcheck, under valgrind when it is installed: a memory error
     * exits 9 (finish() fails). */
    private function swoole(string $code, array $args = [], bool $memcheck = false, array $ini = []): int
    {
        $valgrind = $memcheck && is_executable('/usr/bin/valgrind')
            ? ['env', 'USE_ZEND_ALLOC=0', '/usr/bin/valgrind', '-q', '--error-exitcode=9'] : [];
        $cmd = array_merge($valgrind, [PHP_BINARY, '-d', 'pcre.jit=' . ($valgrind ? 0 : 1), '-d', 'extension=' . self::swooleSo()],
            array_slice(Processes::php(), 1),
            ...array_map(fn ($k, $v) => ['-d', "$k=$v"], array_keys($ini), $ini));
        $cmd = array_merge($cmd, ['-r', $code, '--', $this->redis->dsn()], array_map('strval', $args));
        $this->children[] = Processes::startCommand($cmd);
        return array_key_last($this->children);
    }

    /** Child $i's exit: its stdout's lines, JSON-decoded, once it exited with 0 (with $killed:
     * once it killed itself with SIGKILL). */
    private function finish(int $i, float $seconds = 30, bool $killed = false): array
    {
        [$proc, $pipes] = $this->children[$i];
        $code = null;
        $this->await(function () use ($proc, &$code, $killed) {
            $st = proc_get_status($proc);
            $code = $killed ? ($st['signaled'] ? 'signal ' . $st['termsig'] : $st['exitcode']) : $st['exitcode'];
            return !$st['running'];
        }, 'child ' . $i . ' exits', $seconds);
        [, $out, $err] = Processes::finish($proc, $pipes);
        unset($this->children[$i]);
        $this->assertSame($killed ? 'signal ' . SIGKILL : 0, $code, "child $i: $out $err");
        return array_map(fn ($l) => json_decode($l, true), array_filter(explode("\n", $out)));
    }

    /** Child code: raw($dsn, ...$argv), one command on a connection of its own (a hooked
     * socket: it yields), its reply's first line or bulk; awaitPaused($dsn, $n): yields until
     * $n clients wait on an EVAL/EVALSHA that CLIENT PAUSE WRITE holds back. */
    private const RAW = '
        function raw(string $dsn, string ...$a): string {
            $s = stream_socket_client("tcp://" . parse_url($dsn, PHP_URL_HOST) . ":" . parse_url($dsn, PHP_URL_PORT));
            $out = "*" . count($a) . "\r\n";
            foreach ($a as $x) { $out .= "\$" . strlen($x) . "\r\n$x\r\n"; }
            fwrite($s, $out);
            $line = rtrim(fgets($s), "\r\n");
            if ($line[0] === "$" && ($n = (int) substr($line, 1)) >= 0) {
                for ($line = ""; strlen($line) < $n + 2; $line .= fread($s, $n + 2 - strlen($line)));
                $line = substr($line, 0, $n);
            }
            fclose($s);
            return $line;
        }
        function awaitPaused(string $dsn, int $n): void {
            while (preg_match_all("/ flags=[a-zA-Z]*b[a-zA-Z]* .* cmd=eval/", raw($dsn, "CLIENT", "LIST")) < $n) {
                Co::sleep(0.001);
            }
        }';

    private function blocked(): int
    {
        return (int) $this->redis->info('clients')['blocked_clients'];
    }

    /** 20 coroutines of one process, 20 ms inside each: one inside at a time, all served. */
    public function testTwentyCoroutinesTakeTurns(): void
    {
        foreach ([true, false] as $reentrant) {
            $i = $this->swoole(self::HOOKS . '
                [, $dsn, $reentrant] = $argv;
                $inside = $max = $served = $failed = 0;
                $t0 = hrtime(true);
                Co\run(function () use ($dsn, $reentrant, &$inside, &$max, &$served, &$failed) {
                    for ($n = 0; $n < 20; $n++) {
                        go(function () use ($dsn, $reentrant, &$inside, &$max, &$served, &$failed) {
                            $l = new RLock("k", ["server" => $dsn, "wait" => 3000, "reentrant" => (bool) $reentrant]);
                            if (!$l->lock()) {
                                $failed++;
                                return;
                            }
                            $max = max($max, ++$inside);
                            Co::sleep(0.02);
                            $inside--;
                            $served++;
                            $l->unlock();
                        });
                    }
                });
                echo json_encode(["max" => $max, "served" => $served, "failed" => $failed,
                    "ms" => (hrtime(true) - $t0) / 1e6]), "\n";', [(int) $reentrant]);
            [$r] = $this->finish($i);
            $this->assertSame(1, $r['max'], 'one coroutine inside at a time');
            $this->assertSame(20, $r['served']);
            $this->assertSame(0, $r['failed']);
            $this->assertGreaterThanOrEqual(400, $r['ms']);
            $this->assertLessThan(5000, $r['ms'], 'about 20 x 20 ms');
        }
    }

    /** One lock object and one semaphore object, each used by 20 coroutines at once (a
     * service's): each coroutine its own part of what they hold. */
    public function testOneObjectSharedByCoroutines(): void
    {
        $i = $this->swoole(self::HOOKS . '
            [, $dsn] = $argv;
            $r = ["lock" => 0, "sem" => 0, "served" => 0, "lockMax" => 0, "semMax" => 0];
            Co\run(function () use ($dsn, &$r) {
                $l = new RLock("k", ["server" => $dsn, "wait" => 5000]);
                $s = new RSemaphore("s", 3, ["server" => $dsn, "wait" => 5000]);
                for ($n = 0; $n < 20; $n++) {
                    go(function () use ($l, $s, &$r) {
                        if ($s->acquire()) {
                            $r["semMax"] = max($r["semMax"], ++$r["sem"]);
                            if ($l->lock()) {
                                $r["lockMax"] = max($r["lockMax"], ++$r["lock"]);
                                Co::sleep(0.005);
                                $r["lock"]--;
                                $r["served"] += $l->unlock();
                            }
                            Co::sleep(0.005);
                            $r["sem"]--;
                            $s->release();
                        }
                    });
                }
            });
            echo json_encode(["served" => $r["served"], "lockMax" => $r["lockMax"], "semMax" => $r["semMax"]]), "\n";');
        [$r] = $this->finish($i);
        $this->assertSame(['served' => 20, 'lockMax' => 1, 'semMax' => 3], $r);
        $this->assertSame(0, $this->client->exists('rlock:k'));
    }

    /** Redlock over 3 masters: every coroutine its own connection to each master (their
     * fan-out waits yield); one inside at a time, and another coroutine runs meanwhile. */
    public function testRedlockCoroutinesTakeTurns(): void
    {
        $more = [new RedisServer(), new RedisServer()];
        try {
            $i = $this->swoole(self::HOOKS . '
                $servers = array_slice($argv, 1);
                $inside = $max = $served = $ticks = 0;
                Co\run(function () use ($servers, &$inside, &$max, &$served, &$ticks) {
                    $stop = false;
                    go(function () use (&$ticks, &$stop) {
                        while (!$stop) {
                            Co::sleep(0.005);
                            $ticks++;
                        }
                    });
                    $wg = new Swoole\Coroutine\WaitGroup();
                    for ($n = 0; $n < 10; $n++) {
                        $wg->add();
                        go(function () use ($servers, &$inside, &$max, &$served, $wg) {
                            $l = new RLock("k", ["servers" => $servers, "wait" => 10000]);
                            if ($l->lock()) {
                                $max = max($max, ++$inside);
                                Co::sleep(0.02);
                                $inside--;
                                $served += $l->unlock();
                            }
                            $wg->done();
                        });
                    }
                    $wg->wait();
                    $stop = true;
                });
                echo json_encode(["max" => $max, "served" => $served, "ticked" => $ticks > 10]), "\n";',
                [$more[0]->dsn(), $more[1]->dsn()]);
            [$r] = $this->finish($i);
            $this->assertSame(['max' => 1, 'served' => 10, 'ticked' => true], $r);
        } finally {
            foreach ($more as $m) {
                $m->stop();
            }
        }
    }

    /** Each coroutine's call keeps its own deadline: one that begins while another waits
     * (its deadline near) is not cut short by the other's. */
    public function testEachCoroutineItsOwnDeadline(): void
    {
        $i = $this->swoole(self::HOOKS . '
            [, $dsn] = $argv;
            $r = [];
            Co\run(function () use ($dsn, &$r) {
                $h = new RLock("a", ["server" => $dsn, "ttl" => 10000]);
                $x = new RLock("x", ["server" => $dsn, "ttl" => 10000]);
                $r["held"] = $h->lock() && $x->lock();
                $wg = new Swoole\Coroutine\WaitGroup(1);
                go(function () use ($dsn, &$r, $wg) {
                    // waits 300 ms in a call whose deadline is 500 ms away
                    $a = new RLock("a", ["server" => $dsn, "wait" => 300, "connect_timeout" => 100, "read_timeout" => 100]);
                    try {
                        $r["short"] = $a->lock();
                    } catch (RLockConnectionException $e) {
                        $r["short"] = false;  // (Redis paused past its deadline)
                    }
                    $wg->done();
                });
                Co::sleep(0.25);
                // Redis answers nothing for 300 ms from now: past the waiter\'s deadline
                $p = parse_url($dsn);
                $redis = new Redis();
                $redis->connect($p["host"], $p["port"]);
                $redis->rawCommand("CLIENT", "PAUSE", "300", "ALL");
                try {
                    $r["unlock"] = $x->unlock();
                } catch (RLockException $e) {
                    $r["unlock"] = $e->getMessage();
                }
                $wg->wait();
                $h->unlock();
            });
            ksort($r);
            echo json_encode($r), "\n";');
        [$r] = $this->finish($i);
        $this->assertSame(['held' => true, 'short' => false, 'unlock' => true], $r);
    }

    /** A server named by a host name: the coroutines resolve it through Swoole (yielding). */
    public function testHostNameInCoroutines(): void
    {
        $i = $this->swoole(self::HOOKS . '
            $dsn = str_replace("127.0.0.1", "localhost", $argv[1]);
            $inside = $max = $served = 0;
            Co\run(function () use ($dsn, &$inside, &$max, &$served) {
                for ($n = 0; $n < 5; $n++) {
                    go(function () use ($dsn, &$inside, &$max, &$served) {
                        $l = new RLock("k", ["server" => $dsn, "wait" => 5000]);
                        if ($l->lock()) {
                            $max = max($max, ++$inside);
                            Co::sleep(0.01);
                            $inside--;
                            $served += $l->unlock();
                        }
                    });
                }
            });
            echo json_encode(["max" => $max, "served" => $served]), "\n";');
        [$r] = $this->finish($i);
        $this->assertSame(['max' => 1, 'served' => 5], $r);
    }

    /** Reentrancy within one coroutine; another coroutine of the process waits. */
    public function testReentrantWithinOneCoroutine(): void
    {
        $i = $this->swoole(self::HOOKS . '
            [, $dsn] = $argv;
            Co\run(function () use ($dsn) {
                $a = new RLock("k", ["server" => $dsn]);
                $b = new RLock("k", ["server" => $dsn, "wait" => 0]);
                $r = ["outer" => $a->lock(), "inner" => $b->lock()];
                $wg = new Swoole\Coroutine\WaitGroup(1);
                go(function () use ($dsn, &$r, $wg) {
                    $r["other"] = (new RLock("k", ["server" => $dsn, "wait" => 0]))->lock();
                    $wg->done();
                });
                $wg->wait();
                $b->unlock();
                $r["held"] = $a->isLocked();
                $a->unlock();
                echo json_encode($r), "\n";
            });');
        [$r] = $this->finish($i);
        $this->assertSame(['outer' => true, 'inner' => true, 'other' => false, 'held' => true], $r);
    }

    /** RRateLimiter::acquire() sleeps until its permit is due by yielding: another coroutine
     * of the process runs meanwhile (a blocking sleep would leave it no tick). */
    public function testRateLimiterWaitYields(): void
    {
        $i = $this->swoole(self::HOOKS . '
            [, $dsn] = $argv;
            Co\run(function () use ($dsn) {
                $r = ["ticks" => 0];
                $done = false;
                go(function () use (&$r, &$done) {
                    while (!$done) {
                        Co::sleep(0.01);
                        $r["ticks"]++;
                    }
                });
                $rate = new RRateLimiter("swoole-rate", 1, 400, ["server" => $dsn]);
                $t = microtime(true);  // (the server takes the first after this reading)
                $r["first"] = $rate->tryAcquire();
                $r["second"] = $rate->acquire(1, 5000);
                $r["waited"] = (int) ((microtime(true) - $t) * 1000);
                $done = true;
                echo json_encode($r), "\n";
            });');
        [$r] = $this->finish($i);
        $this->assertTrue($r['first']);
        $this->assertTrue($r['second']);
        $this->assertGreaterThanOrEqual(399, $r['waited'], 'due 400 ms after the first');
        // ~40 ticks of 10 ms in 400 ms; a sleep that blocked the process leaves at most 1
        $this->assertGreaterThanOrEqual(5, $r['ticks'], json_encode($r));
    }

    /** A coroutine that ends holding (return, Co::cancel) releases at once, its lock object
     * still alive; one whose exception ends the process releases at the request's end. */
    public function testCoroutineEndReleases(): void
    {
        $i = $this->swoole(self::HOOKS . '
            [, $dsn] = $argv;
            $keep = [];
            Co\run(function () use ($dsn, &$keep) {
                $free = fn ($k) => (new RLock($k, ["server" => $dsn, "wait" => 0, "ttl" => 60000]))->lock();
                // an ended coroutine releases after its defers (the done() of the WaitGroup among
                // them), in a round trip of its own: awaited, woken by that release (within 5 s;
                // never released, the 60 s lease would keep it)
                $freed = fn ($k) => (new RLock($k, ["server" => $dsn, "wait" => 5000, "ttl" => 60000]))->lock();
                $wg = new Swoole\Coroutine\WaitGroup();
                $wg->add();
                go(function () use ($dsn, &$keep, $wg) {
                    defer(fn () => $wg->done());
                    $keep[] = $l = new RLock("returned", ["server" => $dsn, "ttl" => 60000]);
                    $l->lock();
                });
                $wg->wait();
                echo json_encode(["returned" => $freed("returned")]), "\n";
                $ch = new Swoole\Coroutine\Channel(1);
                $wg->add();
                $cid = go(function () use ($dsn, &$keep, $wg, $ch) {
                    defer(fn () => $wg->done());
                    $keep[] = $l = new RLock("cancelled", ["server" => $dsn, "ttl" => 60000]);
                    $ch->push($l->lock());
                    Co::sleep(60);
                });
                $ch->pop();
                $held = $free("cancelled");
                Co::cancel($cid);
                $wg->wait();
                echo json_encode(["held" => $held, "cancelled" => $freed("cancelled")]), "\n";
                go(function () use ($dsn, &$keep) {
                    $keep[] = $l = new RLock("thrown", ["server" => $dsn, "ttl" => 60000]);
                    $l->lock();
                    echo json_encode(["thrown" => $l->isLocked()]), "\n";
                    throw new RuntimeException("out of the coroutine");
                });
            });');
        $this->assertSame(['returned' => true], $this->report($i));
        $this->assertSame(['held' => false, 'cancelled' => true], $this->report($i));
        $this->assertSame(['thrown' => true], $this->report($i));
        [$proc, $pipes] = $this->children[$i];
        $this->await(fn () => !proc_get_status($proc)['running'], 'the uncaught exception ends the process');
        Processes::finish($proc, $pipes);
        unset($this->children[$i]);
        $this->assertSame(0, $this->client->exists('rlock:returned', 'rlock:cancelled', 'rlock:thrown'));
    }

    /** A coroutine's holds end after all its defers: one registered before lock() still
     * finds the lock held (not released, and renewed: unlock() true), either auto_release. */
    public function testCoroutineEndAfterEarlierDefers(): void
    {
        $got = [];
        foreach ([true, false] as $autoRelease) {
            $i = $this->swoole(self::HOOKS . '
                [, $dsn, $ar] = $argv;
                Co\run(function () use ($dsn, $ar) {
                    go(function () use ($dsn, $ar) {
                        $l = new RLock("k", ["server" => $dsn, "ttl" => 60000, "auto_release" => (bool) $ar]);
                        defer(function () use ($l, $dsn) {
                            $taken = (new RLock("k", ["server" => $dsn, "wait" => 0, "reentrant" => false]))->lock();
                            echo json_encode(["acquired" => $l->isAcquired(), "taken" => $taken,
                                "unlocked" => $l->unlock()]), "\n";
                        });
                        $l->lock();
                    });
                });', [(int) $autoRelease]);
            [$r] = $this->finish($i);
            $got[json_encode($autoRelease)] = $r + ['left' => $this->client->exists('rlock:k')];
            $this->client->del('rlock:k');
        }
        $held = ['acquired' => true, 'taken' => false, 'unlocked' => true, 'left' => 0];
        $this->assertSame(['true' => $held, 'false' => $held], $got, 'by auto_release');
    }

    /** The statistics count a wait and a hand-over for the acquire that waited: not for
     * another coroutine's whose acquire was under way meanwhile (X's, on a paused server,
     * while W waited and was handed the lock). */
    public function testStatisticsWaitsPerCoroutine(): void
    {
        $slow = new RedisServer();
        $held = new RLock('busy', ['server' => $this->redis->dsn()]);
        try {
            $slow->pause();
            $this->assertTrue($held->lock());
            $i = $this->swoole(self::HOOKS . '
                [, $dsn, $slowDsn] = $argv;
                Co\run(function () use ($dsn, $slowDsn) {
                    go(function () use ($slowDsn) {
                        $x = new RLock("free", ["server" => $slowDsn, "wait" => 30000,
                            "connect_timeout" => 30000, "read_timeout" => 30000]);
                        $x->lock();
                        $x->unlock();
                    });
                    go(function () use ($dsn) {
                        $w = new RLock("busy", ["server" => $dsn, "wait" => 30000]);
                        echo json_encode(["w" => $w->lock() && $w->unlock()]), "\n";
                    });
                });
                $keys = rlock_status()["keys"];
                $row = fn ($k) => array_intersect_key($keys[$k],
                    ["acquires" => 0, "contended" => 0, "waits" => 0, "handovers" => 0]);
                echo json_encode(["free" => $row("rlock:free"), "busy" => $row("rlock:busy")]), "\n";',
                [$slow->dsn()], ini: ['rlock.stats_keys' => 64]);
            $this->await(fn () => $this->blocked() >= 1, 'W waits for busy');
            $this->assertTrue($held->unlock());
            $this->assertSame(['w' => true], $this->report($i));
            $slow->resume();
            [$r] = $this->finish($i);
        } finally {
            $slow->resume();
        }
        $this->assertSame([
            'free' => ['acquires' => 1, 'contended' => 0, 'waits' => 0, 'handovers' => 0],
            'busy' => ['acquires' => 1, 'contended' => 1, 'waits' => 1, 'handovers' => 1],
        ], $r);
    }

    /** A command to the server at $dsn on a connection of its own (yields, with the hooks on). */
    private const CMD = 'function cmd(string $dsn, string ...$a): string {
            $s = stream_socket_client("tcp://" . substr($dsn, strlen("redis://")));
            $out = "*" . count($a) . "\r\n";
            foreach ($a as $x) { $out .= "\$" . strlen($x) . "\r\n$x\r\n"; }
            fwrite($s, $out);
            return trim(fgets($s));
        }';

    /** onLost() in coroutines: the callback runs in the coroutine holding the lock, its
     * exception thrown there, not in the unrelated coroutine busy when the loss is found
     * (another request's, under a server). */
    public function testOnLostRunsInTheHolderCoroutine(): void
    {
        $i = $this->swoole(self::HOOKS . self::CMD . '
            [, $dsn] = $argv;
            $r = [];
            Co\run(function () use ($dsn, &$r) {
                $ch = new Swoole\Coroutine\Channel(1);
                $r["holder"] = go(function () use ($dsn, $ch, &$r) {
                    $l = (new RLock("k", ["server" => $dsn, "ttl" => 600, "watchdog" => true]))
                        ->onLost(fn (RLock $l) => throw new RuntimeException("lost " . $l->key() . " in " . Co::getCid()));
                    try {
                        $ch->push([$l->lock(), $l->key()]);
                        // (its work, until the other coroutine is done: 30 s at most)
                        for ($n = 0; $n < 3000 && !isset($r["b"]); $n++) {
                            Co::sleep(0.01);
                        }
                        $r["a"] = "not stopped";
                    } catch (RuntimeException $e) {
                        $r["a"] = $e->getMessage();
                    }
                });
                $r["busy"] = go(function () use ($dsn, $ch, &$r) {
                    try {
                        [$r["locked"], $key] = $ch->pop();
                        cmd($dsn, "DEL", "rlock:k");
                        // busy, never yielding, until the loss is found (counted as it is)
                        while ((rlock_status()["keys"][$key]["lost"] ?? 0) < 1) {
                            for ($j = 0; $j < 1000; $j++) {
                            }
                        }
                        $r["b"] = "not interrupted";
                    } catch (RuntimeException $e) {
                        $r["b"] = $e->getMessage();
                    }
                });
            });
            echo json_encode($r), "\n";');
        $r = $this->finish($i)[0];
        $this->assertSame(['holder' => $r['holder'], 'busy' => $r['busy'], 'locked' => true,
            'b' => 'not interrupted', 'a' => 'lost rlock:k in ' . $r['holder']], $r);
    }

    /** A coroutine that ended holding a lock its end found lost has no callback run: not in
     * another coroutine; the loss is counted all the same. */
    public function testOnLostNotAfterTheCoroutineEnded(): void
    {
        $other = new RedisServer();
        try {
            $i = $this->swoole(self::HOOKS . self::CMD . '
                [, $dsn, $other] = $argv;
                $calls = $keep = [];
                Co\run(function () use ($dsn, $other, &$calls, &$keep) {
                    $wg = new Swoole\Coroutine\WaitGroup();
                    $wg->add();
                    $ch = new Swoole\Coroutine\Channel(1);
                    $ended = go(function () use ($dsn, $other, &$calls, &$keep, $wg, $ch) {
                        defer(fn () => $wg->done());  // (before rlock\'s: runs after it)
                        // the objects outlive the coroutine: its end lets go of the holds
                        $keep[] = $b = new RLock("b", ["server" => $other, "read_timeout" => 60000]);
                        $keep[] = $a = (new RLock("a", ["server" => $dsn, "ttl" => 600, "watchdog" => true]))
                            ->onLost(function () use (&$calls) { $calls[] = Co::getCid(); });
                        $b->lock();
                        $a->lock();
                        // its end releases b first, waiting until the server takes writes again
                        cmd($other, "CLIENT", "PAUSE", "60000", "WRITE");
                        cmd($dsn, "DEL", "rlock:a");
                        $ch->push($a->key());
                    });
                    $key = $ch->pop();
                    // the coroutine ends meanwhile, waiting in the release of b
                    while ((rlock_status()["keys"][$key]["lost"] ?? 0) < 1) {
                        Co::sleep(0.005);
                    }
                    cmd($other, "CLIENT", "UNPAUSE");
                    $wg->wait();
                    for ($n = 0; $n < 10; $n++) {  // (others run on)
                        Co::sleep(0.001);
                    }
                    echo json_encode(["calls" => $calls, "lost" => rlock_status()["keys"][$key]["lost"],
                        "exists" => cmd($other, "EXISTS", "rlock:b")]), "\n";
                });', [$other->dsn()]);
            $this->assertSame(['calls' => [], 'lost' => 1, 'exists' => ':0'], $this->finish($i)[0]);
        } finally {
            $other->stop();
        }
    }

    /** A callback that yields (a Redis call, a sleep) holds up no other coroutine's callback,
     * and lets the other coroutines switch Fibers meanwhile. */
    public function testOnLostCallbackYieldsOthersRun(): void
    {
        $i = $this->swoole(self::HOOKS . self::CMD . '
            [, $dsn] = $argv;
            $r = ["a" => null, "b" => null];
            Co\run(function () use ($dsn, &$r) {
                $wg = new Swoole\Coroutine\WaitGroup();
                $holder = function (string $name, Closure $fn) use ($dsn, &$r, $wg) {
                    $wg->add();
                    go(function () use ($name, $fn, $dsn, &$r, $wg) {
                        $l = (new RLock($name, ["server" => $dsn, "ttl" => 600, "watchdog" => true]))->onLost($fn);
                        $r["locked $name"] = $l->lock();
                        for ($n = 0; $n < 3000 && $r[$name] === null; $n++) {
                            Co::sleep(0.01);
                        }
                        $wg->done();
                    });
                };
                // a: its callback waits (yielding) until b\'s ran, 10 s at most
                $holder("a", function () use (&$r) {
                    $r["a"] = "running";
                    for ($n = 0; $n < 1000 && $r["b"] === null; $n++) {
                        Co::sleep(0.01);
                    }
                    $r["a"] = $r["b"] === null ? "b did not run meanwhile" : "b ran meanwhile";
                });
                $holder("b", function () use (&$r) {
                    $r["b"] = "ran";
                });
                while (!isset($r["locked a"], $r["locked b"])) {
                    Co::sleep(0.001);
                }
                cmd($dsn, "DEL", "rlock:a");
                while ($r["a"] === null) {
                    Co::sleep(0.001);
                }
                try {
                    $f = new Fiber(fn () => Fiber::suspend("switched"));
                    $r["fiber"] = $f->start();
                    $f->resume();
                } catch (FiberError $e) {
                    $r["fiber"] = $e->getMessage();
                }
                cmd($dsn, "DEL", "rlock:b");
                $wg->wait();
            });
            echo json_encode($r), "\n";');
        $r = $this->finish($i)[0];
        ksort($r);
        $this->assertSame(['a' => 'b ran meanwhile', 'b' => 'ran', 'fiber' => 'switched',
            'locked a' => true, 'locked b' => true], $r);
    }

    /** A connection's socket, wrapped for Swoole's reactor at its first wait, stays so while
     * the connection lives (swoole.c): the pool's connections wait in a second Co\run (a new
     * reactor), connections killed by the server are dropped and made anew, a forked child
     * drops those it inherited and makes its own, the app's own hooked sockets work beside
     * them, and the process ends without a fault or a memory error (valgrind), each with
     * persistent connections and without. */
    public function testKeptSocketsAcrossRunsKillsAndForks(): void
    {
        foreach (['1', '0'] as $persistent) {
            $i = $this->swoole(self::HOOKS . self::RAW . '
                [, $dsn, $persistent] = $argv;
                $cycle = function (string $k) use ($dsn, $persistent): bool {
                    $ok = true;
                    Co\run(function () use ($dsn, $persistent, $k, &$ok) {
                        $wg = new Swoole\Coroutine\WaitGroup();
                        for ($c = 0; $c < 4; $c++) {
                            $wg->add();
                            go(function () use ($dsn, $persistent, $k, &$ok, $wg) {
                                for ($j = 0; $j < 10; $j++) {
                                    $l = new RLock($k, ["server" => $dsn, "wait" => 5000, "persistent" => $persistent === "1"]);
                                    $ok = $l->lock() && $l->unlock() && $ok;
                                }
                                $wg->done();
                            });
                        }
                        $wg->wait();
                    });
                    return $ok;
                };
                $r = ["first" => $cycle("a"), "again" => $cycle("b")];
                Co\run(fn () => raw($dsn, "CLIENT", "KILL", "TYPE", "normal"));
                $r["killed"] = $cycle("c");
                if (($pid = pcntl_fork()) === 0) {
                    exit($cycle("d") ? 0 : 1);
                }
                pcntl_waitpid($pid, $st);
                $r["child"] = pcntl_wifexited($st) && pcntl_wexitstatus($st) === 0;
                $r["after"] = $cycle("e");
                Co\run(function () use ($dsn, $persistent, &$r) {
                    $l = new RLock("f", ["server" => $dsn, "persistent" => $persistent === "1"]);
                    $r["app"] = $l->lock() && raw($dsn, "GET", $l->key()) === $l->token() && $l->unlock()
                        && raw($dsn, "PING") === "+PONG";
                });
                echo json_encode($r), "\n";', [$persistent], true);
            $this->assertSame(['first' => true, 'again' => true, 'killed' => true, 'child' => true, 'after' => true,
                'app' => true], $this->finish($i, 120)[0], "persistent $persistent");
        }
    }

    /** /ping on the worker answers while 100 coroutines of it wait for a held lock. */
    public function testWorkerServesWhileCoroutinesWait(): void
    {
        $port = RedisServer::freePort();
        $i = $this->swoole('
            [, $dsn, $port] = $argv;
            $http = new Swoole\Http\Server("127.0.0.1", (int) $port);
            $http->set(["worker_num" => 1, "enable_coroutine" => true, "log_level" => SWOOLE_LOG_WARNING,
                "hook_flags" => extension_loaded("curl") ? SWOOLE_HOOK_ALL
                    : SWOOLE_HOOK_ALL & ~(SWOOLE_HOOK_CURL | SWOOLE_HOOK_NATIVE_CURL)]);
            $http->on("workerStart", fn ($http) => print(json_encode([$http->master_pid, $http->manager_pid, getmypid()]) . "\n"));
            $http->on("request", function ($req, $res) use ($dsn) {
                $path = $req->server["request_uri"];
                if ($path === "/ping") {
                    $res->end("pong");
                    return;
                }
                $l = new RLock("sale", ["server" => $dsn, "wait" => 20000, "ttl" => 30000]);
                if ($path === "/hold") {
                    $l->lock();
                    $res->end("held");
                    Co::sleep(60);
                    return;
                }
                $res->end($l->lock() ? "got" : "timeout");
            });
            $http->start();', [$port]);
        $pids = $this->report($i);
        try {
            $this->pingWhileWaiting($port);
        } finally {
            foreach ($pids as $pid) {
                if ($pid > 0) {
                    posix_kill($pid, SIGKILL);
                }
            }
        }
    }

    private function pingWhileWaiting(int $port): void
    {
        $conns = [];
        $open = function (string $path) use ($port, &$conns) {
            $s = stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 5);
            $this->assertNotFalse($s, $errstr);
            fwrite($s, "GET $path HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            return $conns[] = $s;
        };
        $hold = $open('/hold');
        stream_set_timeout($hold, 10);
        $this->assertStringContainsString('held', fread($hold, 4096));
        for ($n = 0; $n < 100; $n++) {
            $open('/wait');
        }
        $this->await(fn () => $this->blocked() >= 100, '100 coroutines of the worker wait for the lock', 20,
            fn () => 'blocked clients: ' . $this->blocked());
        $t0 = hrtime(true);
        $ping = $open('/ping');
        stream_set_timeout($ping, 10);
        $answer = stream_get_contents($ping);
        $ms = (hrtime(true) - $t0) / 1e6;
        $this->assertStringEndsWith('pong', $answer);
        $this->assertLessThan(1000, $ms, '/ping answered while 100 coroutines wait');
        fwrite(STDERR, sprintf("\n/ping while 100 coroutines wait: %.1f ms\n", $ms));
        foreach ($conns as $s) {
            fclose($s);
        }
    }

    public static function saleLocks(): array
    {
        return ['rlock' => ['rlock'], 'the floor bench/swoole.php measures rlock against' => ['floor']];
    }

    /**
     * The flash-sale example (examples/swoole/flash_sale.php, 2 workers, coroutines and hooks
     * on) sells its stock once: 300 buyers, 60 at a time, for 20 items give 20 orders to 20
     * buyers, stock 0, every buyer answered 200. Under rlock, and under the floor row of
     * bench/swoole.php (a measuring stick that did not exclude would make rlock look slow).
     * @dataProvider saleLocks
     */
    public function testFlashSaleExampleSellsTheStockOnce(string $kind): void
    {
        $port = RedisServer::freePort();
        $cmd = array_merge(['setsid', PHP_BINARY, '-d', 'extension=' . self::swooleSo()], array_slice(Processes::php(), 1),
            [dirname(__DIR__, 2) . '/examples/swoole/flash_sale.php', "--port=$port", '--workers=2',
                '--redis=' . $this->redis->dsn(), "--lock=$kind"]);
        $server = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'],
            2 => ['file', '/dev/null', 'w']], $pipes);
        $this->assertIsResource($server);
        $pid = proc_get_status($server)['pid'];
        try {
            $get = function (string $path) use ($port): ?array {
                $s = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 1);
                if (!$s) {
                    return null;
                }
                stream_set_timeout($s, 10);
                fwrite($s, "GET $path HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
                $answer = stream_get_contents($s);
                fclose($s);
                return json_decode(substr($answer, strpos($answer, "\r\n\r\n") + 4), true);
            };
            $this->await(fn () => $get('/reset?stock=20') === ['status' => 'ok'], 'the example serves', 20);
            $i = $this->swoole(self::HOOKS . '
                [, , $port] = $argv;
                $codes = [];
                Co\run(function () use ($port, &$codes) {
                    $next = 0;
                    for ($c = 0; $c < 60; $c++) {
                        go(function () use ($port, &$next, &$codes) {
                            while (($n = $next++) < 300) {
                                $cli = new Swoole\Coroutine\Http\Client("127.0.0.1", (int) $port);
                                $cli->set(["timeout" => 20]);
                                $cli->get("/buy?user=u$n");
                                $codes[] = [$cli->statusCode, json_decode((string) $cli->body, true)["status"] ?? null];
                                $cli->close();
                            }
                        });
                    }
                });
                echo json_encode($codes), "\n";', [$port]);
            [$codes] = $this->finish($i, 60);
            $this->assertCount(300, $codes);
            $this->assertSame([200], array_values(array_unique(array_column($codes, 0))), 'every buyer answered 200');
            $statuses = array_count_values(array_column($codes, 1));
            $this->assertSame(20, $statuses['ok'] ?? 0, json_encode($statuses));
            $this->assertSame(280, $statuses['sold_out'] ?? 0, json_encode($statuses));
            $this->assertSame(['stock' => 0, 'orders' => 20, 'buyers' => 20], $get('/stats'));
        } finally {
            posix_kill(-$pid, SIGKILL);
            proc_close($server);
        }
    }

    /** The watchdog renews the lease of every coroutine's hold; a SIGKILLed worker's locks
     * come back within a lease. */
    public function testWatchdogRenewsCoroutinesAndKilledWorkerLetsGo(): void
    {
        $i = $this->swoole(self::HOOKS . '
            [, $dsn] = $argv;
            Co\run(function () use ($dsn) {
                $ch = new Swoole\Coroutine\Channel(10);
                for ($n = 0; $n < 10; $n++) {
                    go(function () use ($dsn, $n, $ch) {
                        $l = new RLock("w$n", ["server" => $dsn, "ttl" => 300, "watchdog" => true]);
                        $ch->push($l->lock());
                        Co::sleep(60);
                    });
                }
                $got = 0;
                for ($n = 0; $n < 10; $n++) {
                    $got += $ch->pop();
                }
                echo json_encode(["held" => $got]), "\n";
                Co::sleep(60);
            });');
        $this->assertSame(['held' => 10], $this->report($i));
        // three leases pass: each key is still held, renewed
        usleep(1000 * 1000);
        $keys = array_map(fn ($n) => "rlock:w$n", range(0, 9));
        $this->assertSame(10, $this->client->exists(...$keys), 'the watchdog renews every coroutine\'s lease');
        [$proc] = $this->children[$i];
        posix_kill(proc_get_status($proc)['pid'], SIGKILL);
        $t0 = hrtime(true);
        $l = new RLock('w0', ['server' => $this->redis->dsn(), 'wait' => 5000]);
        $this->assertTrue($l->lock(), 'the killed worker\'s lock comes to the next waiter');
        $this->assertLessThan(2000, (hrtime(true) - $t0) / 1e6, 'within about a lease');
        $l->unlock();
    }

    /** Redis stops while a coroutine waits: RLockConnectionException in that coroutine, and
     * the process' other coroutines kept running meanwhile and after. */
    public function testRedisStoppedMidWait(): void
    {
        $i = $this->swoole(self::HOOKS . '
            [, $dsn] = $argv;
            Co\run(function () use ($dsn) {
                $ch = new Swoole\Coroutine\Channel(1);
                $holder = go(function () use ($dsn, $ch) {
                    $l = new RLock("k", ["server" => $dsn, "ttl" => 60000]);
                    $ch->push($l->lock());
                    Co::sleep(60);
                });
                $ch->pop();
                $ticks = 0;
                $waiting = true;
                go(function () use (&$ticks, &$waiting) {
                    while ($waiting) {
                        Co::sleep(0.01);
                        $ticks++;
                    }
                });
                echo json_encode(["waiting" => true]), "\n";
                try {
                    (new RLock("k", ["server" => $dsn, "wait" => 20000]))->lock();
                    $r = ["error" => null];
                } catch (RLockException $e) {
                    $r = ["error" => get_class($e)];
                }
                $before = $ticks;
                Co::sleep(0.05);
                $waiting = false;
                echo json_encode($r + ["ticked" => $before > 0, "ticking" => $ticks > $before]), "\n";
                Co::cancel($holder);
            });');
        $this->assertSame(['waiting' => true], $this->report($i));
        $this->await(fn () => $this->blocked() >= 1, 'the coroutine waits');
        $this->redis->stop();
        $this->assertSame(['error' => 'RLockConnectionException', 'ticked' => true, 'ticking' => true],
            $this->report($i, 25));
    }

    /** A coroutine re-enters its lock (the extend round trip yields) while another releases
     * that hold by its token (RLock::release()): the re-entering coroutine finds it gone, gives
     * back what Redis extended and acquires afresh; nothing written into the freed hold
     * (valgrind). */
    public function testReenterWhileReleasedByToken(): void
    {
        $i = $this->swoole(self::HOOKS . self::RAW . '
            [, $dsn] = $argv;
            Co\run(function () use ($dsn) {
                $l = new RLock("k", ["server" => $dsn, "ttl" => 60000, "wait" => 20000]);
                $l->lock();
                $old = $l->token();
                raw($dsn, "CLIENT", "PAUSE", "60000", "WRITE");
                go(function () use ($dsn, $old) {   // A\'s extend waits: its hold released by token
                    awaitPaused($dsn, 1);
                    RLock::release("k", $old, ["server" => $dsn]);
                });
                go(function () use ($dsn) {         // both wait: Redis answers them
                    awaitPaused($dsn, 2);
                    raw($dsn, "CLIENT", "UNPAUSE");
                });
                $r = ["again" => $l->lock()];
                $r["fresh"] = $l->token() !== $old;
                $r["inRedis"] = raw($dsn, "GET", "rlock:k") === $l->token();
                $r["unlock"] = $l->unlock();
                $r["exists"] = raw($dsn, "EXISTS", "rlock:k");
                $r["unlockAgain"] = $l->unlock();
                echo json_encode($r), "\n";
            });', [], true);
        [$r] = $this->finish($i, 120);
        $this->assertSame(['again' => true, 'fresh' => true, 'inRedis' => true, 'unlock' => true, 'exists' => ':0',
            'unlockAgain' => false], $r);
    }

    /** RRateLimiter::all() over an array holding a reference: another coroutine drops the
     * last reference to a limiter while all() waits on Redis; all() kept it alive (valgrind:
     * nothing read or written in a freed limiter). */
    public function testAllKeepsLimitersAcrossTheWait(): void
    {
        $i = $this->swoole(self::HOOKS . self::RAW . '
            [, $dsn] = $argv;
            Co\run(function () use ($dsn) {
                $a = new RRateLimiter("a", 10, 3600000, ["server" => $dsn]);
                $b = new RRateLimiter("b", 10, 3600000, ["server" => $dsn]);
                $arr = [&$a, $b];
                raw($dsn, "CLIENT", "PAUSE", "60000", "WRITE");
                go(function () use ($dsn, &$a) {
                    awaitPaused($dsn, 1);
                    $a = null;
                    raw($dsn, "CLIENT", "UNPAUSE");
                });
                $r = ["all" => RRateLimiter::all($arr), "a" => $a, "bRemaining" => $b->remaining()];
                echo json_encode($r), "\n";
            });', [], true);
        [$r] = $this->finish($i, 120);
        $this->assertSame(['all' => true, 'a' => null, 'bRemaining' => 9], $r);
    }

    /** Coroutines whose first rlock call is an RLock freed while an exception unwinds them:
     * each one's end still frees its state and its connection slot (the next takes it again),
     * so their connections do not pile up. */
    public function testFirstCallInUnwindingEnds(): void
    {
        $i = $this->swoole(self::HOOKS . self::RAW . '
            [, $dsn] = $argv;
            Co\run(function () use ($dsn) {
                for ($n = 0; $n < 5; $n++) {
                    $l = new RLock("k$n", ["server" => $dsn]);
                    $l->lock();
                    $ch = new Swoole\Coroutine\Channel(1);
                    $ch->push($l);
                    unset($l);
                    $done = new Swoole\Coroutine\Channel(1);
                    go(function () use ($ch, $done) {
                        try {
                            (function () use ($ch) {
                                $l = $ch->pop();  // the last reference: freed as this unwinds
                                throw new RuntimeException("x");
                            })();
                        } catch (RuntimeException $e) {
                        }
                        $done->push(true);
                    });
                    $done->pop();
                    Co::sleep(0.01);  // (its end, after the push)
                    $clients[$n] = substr_count(raw($dsn, "CLIENT", "LIST"), "id=");
                }
                $left = 0;
                for ($n = 0; $n < 5; $n++) {
                    $left += raw($dsn, "EXISTS", "rlock:k$n") === ":1";
                }
                echo json_encode(["left" => $left, "more clients" => $clients[4] - $clients[0]]), "\n";
            });');
        [$r] = $this->finish($i);
        $this->assertSame(['left' => 0, 'more clients' => 0], $r, 'the first one\'s connection serves the next');
    }

    /**
     * Co::cancel($cid, true) on a coroutine waiting in lock(), synchronized() or
     * RSemaphore::acquire(): Swoole lets the wait run to its end, then throws its
     * CanceledException where the call returns. The caller gets the exception, not the lock:
     * what the wait took goes back at once, though the coroutine lives on with its objects
     * (before: held until the coroutine ended, or for ever with the watchdog renewing it), and
     * synchronized() does not run its callback.
     */
    public function testCancelledWaiterKeepsNothing(): void
    {
        $i = $this->swoole(self::HOOKS . self::RAW . '
            [, $dsn] = $argv;
            Co\run(function () use ($dsn) {
                $o = ["server" => $dsn, "ttl" => 30000, "wait" => 20000, "watchdog" => true];
                $hl = new RLock("k", $o);
                $hl->lock();
                $hs = new RSemaphore("s", 1, $o);
                $hs->acquire();
                $r = [];
                $keep = [];
                $done = new Swoole\Coroutine\Channel(3);
                $end = new Swoole\Coroutine\Channel(1);
                $wait = function (string $name, callable $f) use (&$r, &$keep, $done, $end) {
                    return go(function () use ($name, $f, &$r, &$keep, $done, $end) {
                        try {
                            $r[$name] = ["returned" => $f($keep)];
                        } catch (Throwable $e) {
                            $r[$name] = ["threw" => get_class($e)];
                        }
                        $done->push(1);
                        $end->pop();  // lives on, its objects with it
                    });
                };
                $cids = [
                    $wait("lock", fn (&$keep) => ($keep[] = new RLock("k", $o))->lock()),
                    $wait("synchronized", fn (&$keep) => ($keep[] = new RLock("k", $o))->synchronized(fn () => "ran")),
                    $wait("acquire", fn (&$keep) => ($keep[] = new RSemaphore("s", 1, $o))->acquire()),
                ];
                while (preg_match_all("/ cmd=blpop/", raw($dsn, "CLIENT", "LIST")) < 3) {
                    Co::sleep(0.001);
                }
                foreach ($cids as $c) {
                    Co::cancel($c, true);
                }
                $hl->unlock();
                $hs->release();
                for ($n = 0; $n < 3; $n++) {
                    $done->pop();
                }
                $r["k free"] = (new RLock("k", $o))->tryLock();
                $r["s free"] = (new RSemaphore("s", 1, $o))->tryAcquire();
                $end->close();
                ksort($r);
                echo json_encode($r), "\n";
            });', [], true);
        [$r] = $this->finish($i, 120);
        $cancelled = ['threw' => 'Swoole\Coroutine\CanceledException'];
        $this->assertSame(['acquire' => $cancelled, 'k free' => true, 'lock' => $cancelled, 's free' => true,
            'synchronized' => $cancelled], $r);
    }

    /**
     * A coroutine sleeping in RRateLimiter::acquire() until its permit is due (fair: reserved,
     * or not: refused, to ask again then) and cancelled with Co::cancel($cid, true) throws
     * CanceledException at once, and the limit's key holds what it held before it asked: a
     * reservation goes back, unless another was reserved after it. Before: it slept the 20 s
     * out, then took the permit and threw with it taken. Under valgrind when installed.
     */
    public function testCancelledRateLimiterWaiterKeepsNothing(): void
    {
        $i = $this->swoole(self::HOOKS . self::RAW . '
            [, $dsn] = $argv;
            Co\run(function () use ($dsn) {
                $calls = fn () => preg_match("/cmdstat_evalsha:calls=(\\d+)/", raw($dsn, "INFO", "commandstats"), $m) ? (int) $m[1] : 0;
                $r = [];
                foreach (["fair" => true, "unfair" => false] as $name => $fair) {
                    // 2 at once, then one every 20 s: the burst taken, the next is 20 s away
                    $o = ["server" => $dsn, "fair" => $fair];
                    (new RRateLimiter($name, 2, 40000, $o))->tryAcquire(2);
                    $key = "}{rlock:$name}:rate";
                    $before = raw($dsn, "GET", $key);
                    $asked = $calls();
                    $done = new Swoole\Coroutine\Channel(1);
                    $cid = go(function () use ($name, $o, $done) {
                        $t = microtime(true);
                        try {
                            $out = ["returned" => (new RRateLimiter($name, 2, 40000, $o))->acquire(1, 60000)];
                        } catch (Throwable $e) {
                            $out = ["threw" => get_class($e)];
                        }
                        $done->push($out + ["within 10 s" => microtime(true) - $t < 10]);
                    });
                    while ($calls() === $asked) {
                        Co::sleep(0.001);  // until it asked: then it sleeps
                    }
                    Co::cancel($cid, true);
                    $r[$name] = $done->pop() + ["key as before" => raw($dsn, "GET", $key) === $before];
                }
                // a reservation with another behind it stays taken (given back, the next comer
                // would be due with the one behind: more than the limit around then)
                $o = ["server" => $dsn, "fair" => true];
                (new RRateLimiter("behind", 2, 40000, $o))->tryAcquire(2);
                $asked = $calls();
                $done = new Swoole\Coroutine\Channel(2);
                $cids = [];
                foreach ([1, 2] as $n) {
                    $cids[] = go(function () use ($o, $done) {
                        try {
                            (new RRateLimiter("behind", 2, 40000, $o))->acquire(1, 60000);
                        } catch (Throwable $e) {
                        }
                        $done->push(1);
                    });
                    while ($calls() < $asked + $n) {
                        Co::sleep(0.001);
                    }
                }
                $before = raw($dsn, "GET", "}{rlock:behind}:rate");
                Co::cancel($cids[0], true);
                $done->pop();
                $r["behind another"] = ["key as before" => raw($dsn, "GET", "}{rlock:behind}:rate") === $before];
                Co::cancel($cids[1], true);
                $done->pop();
                echo json_encode($r), "\n";
            });', [], true);
        [$r] = $this->finish($i, 120);
        $cancelled = ['threw' => 'Swoole\Coroutine\CanceledException', 'within 10 s' => true, 'key as before' => true];
        $this->assertSame(['fair' => $cancelled, 'unfair' => $cancelled, 'behind another' => ['key as before' => true]], $r);
    }

    /**
     * A PHP Fiber started inside a coroutine is a context of its own (CONTRACT 3.7), not its
     * coroutine's: two Fibers of one coroutine take turns (each suspends inside its section), a
     * Fiber does not re-enter its coroutine's key, a Fiber that ends holding releases; and
     * while one coroutine is inside a Fiber (yielding there), another coroutine is itself, not
     * that Fiber, even after running a Fiber of its own (Swoole does not keep the engine's
     * current Fiber per coroutine: that Fiber "returns" into the other's). Before: the Fibers
     * were their coroutine, two inside at once. Under valgrind when installed.
     */
    public function testFibersInsideCoroutinesAreContextsOfTheirOwn(): void
    {
        $i = $this->swoole(self::HOOKS . '
            [, $dsn] = $argv;
            Co\run(function () use ($dsn) {
                $o = ["server" => $dsn];
                $r = [];
                $inside = $max = $n = 0;
                $mk = function () use ($o, &$inside, &$max, &$n) {
                    return new Fiber(function () use ($o, &$inside, &$max, &$n) {
                        $l = new RLock("k", $o);
                        while (!$l->tryLock()) {
                            Fiber::suspend();
                        }
                        $max = max($max, ++$inside);
                        Fiber::suspend();
                        $n++;
                        $inside--;
                        $l->unlock();
                    });
                };
                $fs = [$mk(), $mk()];
                foreach ($fs as $f) {
                    $f->start();
                }
                while (array_filter($fs, fn ($f) => !$f->isTerminated())) {
                    foreach ($fs as $f) {
                        if ($f->isSuspended()) {
                            $f->resume();
                        }
                    }
                }
                $r["two Fibers: most inside at once"] = $max;
                $r["sections"] = $n;

                $j = new RLock("j", $o);
                $j->lock();
                $f = new Fiber(fn () => (new RLock("j", $o))->tryLock());
                $f->start();
                $r["a Fiber takes the key of its coroutine"] = $f->getReturn();
                $j->unlock();

                $m = new RLock("m", $o);
                $f = new Fiber(fn () => $m->lock());
                $f->start();
                $r["the Fiber took m"] = $f->getReturn();
                unset($f);  // (it ended: its context with it)
                $r["m free once the Fiber ended"] = (new RLock("m", $o))->tryLock();

                $wg = new Swoole\Coroutine\WaitGroup(2);
                $in = new Swoole\Coroutine\Channel(1);
                $out = new Swoole\Coroutine\Channel(1);
                go(function () use ($o, $wg, $in, $out) {
                    $f = new Fiber(function () use ($o, $in, $out) {
                        $q = new RLock("q", $o);
                        $q->lock();
                        $in->push(1);
                        $out->pop();  // (yields the coroutine inside the Fiber)
                        $q->unlock();
                    });
                    $f->start();
                    $wg->done();
                });
                go(function () use ($o, $wg, $in, $out, &$r) {
                    $in->pop();
                    // a Fiber of its own, run to its end while the engine takes the other
                    // coroutine Fiber for the current one (it "returns" into that one)
                    (new Fiber(fn () => 1))->start();
                    $r["another coroutine takes the key of the Fiber"] = (new RLock("q", $o))->tryLock();
                    $p = new RLock("p", $o);
                    $p->lock();
                    $out->push(1);
                    Co::sleep(0.05);  // the Fiber in the other coroutine ends meanwhile
                    $r["its own hold outlives the other Fiber"] = $p->isAcquired();
                    $GLOBALS["p"] = $p;  // kept: the end of its coroutine releases it
                    $wg->done();
                });
                $wg->wait();
                Co::sleep(0.01);  // (the coroutines end)
                $r["p free once its coroutine ended"] = (new RLock("p", $o))->tryLock();
                echo json_encode($r), "\n";
            });', [], true);
        [$r] = $this->finish($i, 120);
        $this->assertSame(['two Fibers: most inside at once' => 1, 'sections' => 2,
            'a Fiber takes the key of its coroutine' => false, 'the Fiber took m' => true,
            'm free once the Fiber ended' => true, 'another coroutine takes the key of the Fiber' => false,
            'its own hold outlives the other Fiber' => true, 'p free once its coroutine ended' => true], $r);
    }

    /**
     * onLost() of a hold a Fiber took inside a coroutine: the watchdog finds it lost, and the
     * callback runs in that Fiber, as the Fiber next runs (before: never, the Fiber's context
     * being neither a coroutine nor the main flow).
     */
    public function testOnLostOfAFiberInsideACoroutine(): void
    {
        $i = $this->swoole(self::HOOKS . self::RAW . '
            [, $dsn] = $argv;
            $r = [];
            Co\run(function () use ($dsn, &$r) {
                go(function () use ($dsn, &$r) {
                    $f = new Fiber(function () use ($dsn, &$r) {
                        $l = new RLock("ol", ["server" => $dsn, "ttl" => 300, "watchdog" => true]);
                        $l->onLost(function () use (&$r) {
                            $r["called in the Fiber"] = Fiber::getCurrent() !== null;
                        });
                        $l->lock();
                        raw($dsn, "DEL", $l->key());
                        for ($n = 0; $n < 1000 && !isset($r["called in the Fiber"]); $n++) {
                            Co::sleep(0.01);
                        }
                        $r["lost()"] = $l->lost();
                    });
                    $f->start();
                });
            });
            echo json_encode($r), "\n";');
        // (not under valgrind: the interrupt that runs the callback has Swoole 6.2.2's own
        // interrupt function read an uninitialised field of its coroutine, is_schedulable())
        [$r] = $this->finish($i, 60);
        $this->assertSame(['called in the Fiber' => true, 'lost()' => true], $r);
    }

    public static function fiberCounts(): array
    {
        return ['2 coroutines, a Fiber each' => [2, 1], '2 coroutines, 2 Fibers each' => [2, 2],
            '3 coroutines, 6 Fibers each' => [3, 6]];
    }

    /**
     * Fibers of several coroutines, each Fiber holding a lock of its own and taking turns with
     * the others on a shared one, both held across Fiber::suspend() while its coroutine sleeps
     * (the other coroutines run their Fibers meanwhile): each Fiber is its context, its own
     * unlock() releases. Before: the lock() round trip yielded the coroutine inside the Fiber,
     * and Swoole 6.2.2, which keeps PHP's current Fiber per thread, not per coroutine, let the
     * other coroutine's Fiber switches suspend or resume the wrong Fiber: a FiberError
     * ("Cannot resume a fiber that is not suspended"), the Fiber's unlock() refused as another
     * context's, or, with 2 Fibers per coroutine, a segfault. Now rlock's waits inside a Fiber
     * block the worker (never yield there). Under valgrind when installed.
     *
     * @dataProvider fiberCounts
     */
    public function testFibersOfCoroutinesHoldAcrossSuspend(int $coroutines, int $fibers): void
    {
        $i = $this->swoole(self::HOOKS . '
            [, $dsn, $nc, $nf] = $argv;
            $r = ["held after the suspend" => [], "own unlock()" => [], "shared unlock()" => []];
            $inside = $max = $sections = 0;
            Co\run(function () use ($dsn, $nc, $nf, &$r, &$inside, &$max, &$sections) {
                $o = ["server" => $dsn, "wait" => 5000];
                for ($c = 0; $c < $nc; $c++) {
                    go(function () use ($c, $nf, $o, &$r, &$inside, &$max, &$sections) {
                        $fs = [];
                        for ($j = 0; $j < $nf; $j++) {
                            $fs[] = $f = new Fiber(function () use ($c, $j, $o, &$r, &$inside, &$max, &$sections) {
                                $own = new RLock("own.$c.$j", $o);
                                $own->lock();
                                $shared = new RLock("shared", $o);
                                while (!$shared->tryLock()) {
                                    Fiber::suspend();
                                }
                                $max = max($max, ++$inside);
                                Fiber::suspend();
                                $r["held after the suspend"][] = $own->isAcquired() && $shared->isAcquired();
                                $inside--;
                                $sections++;
                                $r["shared unlock()"][] = $shared->unlock();
                                $r["own unlock()"][] = $own->unlock();
                            });
                            $f->start();
                        }
                        while (array_filter($fs, fn ($f) => !$f->isTerminated())) {
                            Co::sleep(0.002);  // (the other coroutines run their Fibers meanwhile)
                            foreach ($fs as $f) {
                                if ($f->isSuspended()) {
                                    $f->resume();
                                }
                            }
                        }
                    });
                }
            });
            $r = array_map(fn ($v) => is_array($v) ? array_count_values(array_map("json_encode", $v)) : $v, $r);
            echo json_encode($r + ["most inside at once" => $max, "sections" => $sections]), "\n";',
            [$coroutines, $fibers], $coroutines * $fibers <= 4);
        [$r] = $this->finish($i, 120);
        $n = $coroutines * $fibers;
        $this->assertSame(['held after the suspend' => ['true' => $n], 'own unlock()' => ['true' => $n],
            'shared unlock()' => ['true' => $n], 'most inside at once' => 1, 'sections' => $n], $r);
    }

    /**
     * A Fiber made in one coroutine and resumed from another is the same context wherever it
     * runs: what it holds stays its own (neither coroutine takes it, the Fiber re-enters and
     * unlocks it from the other coroutine), and a Fiber that ends holding releases, in the
     * coroutine that ran it last, after its first coroutine ended. Under valgrind when installed.
     */
    public function testFiberResumedByAnotherCoroutine(): void
    {
        $i = $this->swoole(self::HOOKS . '
            [, $dsn] = $argv;
            $r = [];
            Co\run(function () use ($dsn, &$r) {
                $o = ["server" => $dsn];
                $ch = new Swoole\Coroutine\Channel(1);
                $a = go(function () use ($o, $ch, &$r) {
                    $f = new Fiber(function () use ($o, &$r) {
                        $x = new RLock("x", $o);
                        $x->lock();
                        Fiber::suspend();
                        $r["the Fiber holds x, resumed by B"] = $x->isAcquired();
                        $r["the Fiber re-enters x"] = $x->tryLock() && $x->unlock();
                        Fiber::suspend();
                        $r["the Fiber unlocks x in B"] = $x->unlock();
                    });
                    $f->start();
                    $r["A takes x of its Fiber"] = (new RLock("x", $o))->tryLock();
                    $g = new Fiber(function () use ($o) {
                        $y = new RLock("y", $o);
                        $y->lock();
                        $GLOBALS["y"] = $y;  // (kept: only the Fiber\'s end releases it)
                        Fiber::suspend();
                    });
                    $g->start();
                    $ch->push([$f, $g]);
                });
                go(function () use ($o, $ch, $a, &$r) {
                    [$f, $g] = $ch->pop();
                    while (Co::exists($a)) {
                        Co::sleep(0.001);
                    }
                    $f->resume();
                    $r["B takes x of the Fiber"] = (new RLock("x", $o))->tryLock();
                    $f->resume();
                    $r["x free once the Fiber unlocked it"] = (new RLock("x", $o))->tryLock();
                    $r["B takes y of the Fiber"] = (new RLock("y", $o))->tryLock();
                    $g->resume();
                    $r["the Fiber ended"] = $g->isTerminated();
                    $r["y free once the Fiber ended holding it"] = (new RLock("y", $o))->tryLock();
                });
            });
            echo json_encode($r), "\n";', [], true);
        [$r] = $this->finish($i, 120);
        $this->assertSame(['A takes x of its Fiber' => false, 'the Fiber holds x, resumed by B' => true,
            'the Fiber re-enters x' => true, 'B takes x of the Fiber' => false, 'the Fiber unlocks x in B' => true,
            'x free once the Fiber unlocked it' => true, 'B takes y of the Fiber' => false, 'the Fiber ended' => true,
            'y free once the Fiber ended holding it' => true], $r);
    }

    /**
     * onLost() of a hold of a Fiber made in one coroutine, found lost while another coroutine
     * resumes it: the callback runs in the Fiber, in that other coroutine. (Not under valgrind:
     * Swoole 6.2.2's interrupt function reads an uninitialised field, as in the test above.)
     */
    public function testOnLostOfAFiberResumedByAnotherCoroutine(): void
    {
        $i = $this->swoole(self::HOOKS . self::RAW . '
            [, $dsn] = $argv;
            $r = [];
            Co\run(function () use ($dsn, &$r) {
                $ch = new Swoole\Coroutine\Channel(1);
                go(function () use ($dsn, $ch, &$r) {
                    $g = new Fiber(function () use ($dsn, &$r) {
                        $y = new RLock("y", ["server" => $dsn, "ttl" => 300, "watchdog" => true]);
                        $y->onLost(function () use (&$r) {
                            $r["ran in the Fiber, in B"] = Fiber::getCurrent() !== null && Co::getCid() === $r["B"];
                        });
                        $y->lock();
                        Fiber::suspend($y->key());
                        while (!isset($r["ran in the Fiber, in B"])) {
                            Fiber::suspend();
                        }
                        $r["lost()"] = $y->lost();
                    });
                    $ch->push([$g, $g->start()]);
                });
                go(function () use ($dsn, $ch, &$r) {
                    $r["B"] = Co::getCid();
                    [$g, $key] = $ch->pop();
                    raw($dsn, "DEL", $key);  // (the watchdog\'s next renewal finds it gone)
                    for ($n = 0; $n < 1000 && !$g->isTerminated(); $n++) {
                        Co::sleep(0.01);
                        $g->resume();
                    }
                });
            });
            unset($r["B"]);
            echo json_encode($r), "\n";');
        [$r] = $this->finish($i, 60);
        $this->assertSame(['ran in the Fiber, in B' => true, 'lost()' => true], $r);
    }

    /**
     * A coroutine cancelled (Co::cancel(), with and without its exception) while a Fiber of
     * its own is suspended holding: the coroutine ends, the Fiber is destroyed with it, and
     * what the Fiber held is released (without yielding: the engine is inside the Fiber's end).
     * Under valgrind when installed.
     */
    public function testCancelledCoroutineReleasesItsFibers(): void
    {
        $i = $this->swoole(self::HOOKS . '
            [, $dsn] = $argv;
            $r = [];
            Co\run(function () use ($dsn, &$r) {
                $o = ["server" => $dsn];
                foreach (["cancel" => false, "cancel, throwing" => true] as $name => $throw) {
                    $held = new Swoole\Coroutine\Channel(1);
                    $cid = go(function () use ($o, $name, $held, &$r) {
                        $f = new Fiber(function () use ($o, $name) {
                            $l = new RLock($name, $o);
                            $l->lock();
                            Fiber::suspend();
                        });
                        $f->start();
                        $held->push(true);
                        try {
                            $r[$name]["slept"] = Co::sleep(30);
                        } catch (Swoole\Coroutine\CanceledException $e) {
                            $r[$name]["threw"] = true;
                        }
                    });
                    $held->pop();
                    $r[$name]["other takes it"] = (new RLock($name, $o))->tryLock();
                    Co::cancel($cid, $throw);
                    while (Co::exists($cid)) {
                        Co::sleep(0.001);
                    }
                    $r[$name]["free once the coroutine ended"] = (new RLock($name, $o))->tryLock();
                }
            });
            echo json_encode($r), "\n";', [], true);
        [$r] = $this->finish($i, 120);
        $this->assertSame(['cancel' => ['other takes it' => false, 'slept' => false, 'free once the coroutine ended' => true],
            'cancel, throwing' => ['other takes it' => false, 'threw' => true, 'free once the coroutine ended' => true]], $r);
    }

    /**
     * A coroutine that yields inside a Fiber (Co::sleep() there) while another coroutine's
     * Fiber yields inside its own: Swoole 6.2.2 keeps PHP's current Fiber per thread, so the
     * first wakes up in its Fiber with the other's for PHP's current one. An rlock call there
     * throws RLockException (a switch of Fibers now would suspend or end the wrong one); the
     * same call once the other Fiber ended (its own current again) goes on. Under valgrind
     * when installed.
     */
    public function testCallInAFiberWhileAnotherCoroutinesFiberIsCurrent(): void
    {
        $i = $this->swoole(self::HOOKS . '
            [, $dsn] = $argv;
            $r = [];
            Co\run(function () use ($dsn, &$r) {
                $o = ["server" => $dsn];
                go(function () use ($o, &$r) {
                    $f = new Fiber(function () use ($o, &$r) {
                        $l = new RLock("a", $o);
                        $r["locks"] = $l->lock();
                        Co::sleep(0.05);  // (B\'s Fiber yields inside its own meanwhile)
                        try {
                            $r["unlocks while B\'s Fiber is current"] = $l->unlock();
                        } catch (RLockException $e) {
                            $r["unlocks while B\'s Fiber is current"] = strstr($e->getMessage(), ":", true);
                        }
                        while (!isset($r["B\'s Fiber ended"])) {
                            Co::sleep(0.01);
                        }
                        $r["unlocks once B\'s Fiber ended"] = $l->unlock();
                    });
                    $f->start();
                });
                go(function () use (&$r) {
                    // (its sleep ends after A\'s: Swoole\'s timers go by their due time)
                    (new Fiber(fn () => Co::sleep(0.15)))->start();
                    $r["B\'s Fiber ended"] = true;
                });
            });
            echo json_encode($r), "\n";', [], true);
        [$r] = $this->finish($i, 60);
        $this->assertSame(['locks' => true, "unlocks while B's Fiber is current" => 'Cannot use rlock in this Fiber',
            "B's Fiber ended" => true, "unlocks once B's Fiber ended" => true], $r);
    }

    /**
     * The same, but the first coroutine's Fiber returns while the other's is PHP's current one:
     * the engine takes the other Fiber for the one that ended (it never tells the end of the
     * first: what it held was never released) and comes back into the coroutine's own flow.
     * From then on rlock refuses every call: code may run as another context. Before: the
     * coroutine's own flow was taken for the ended Fiber, isAcquired() and unlock() of the
     * Fiber's hold true. The child kills itself once it printed (the engine goes on with the
     * other Fiber's end, into the freed Fiber: a memory error of Swoole's and PHP's, with or
     * without rlock), so not under valgrind.
     */
    public function testRefusesAllOnceSwooleSwitchedTheWrongFiber(): void
    {
        $i = $this->swoole(self::HOOKS . '
            [, $dsn] = $argv;
            Co\run(function () use ($dsn) {
                $o = ["server" => $dsn];
                go(function () use ($o) {
                    $q = new RLock("q", $o);
                    $f = new Fiber(function () use ($q) {
                        $q->lock();
                        Co::sleep(0.05);  // (B\'s Fiber yields inside its own meanwhile)
                    });
                    $f->start();
                    $r = ["the Fiber ended" => $f->isTerminated()];
                    $calls = ["isAcquired" => fn () => $q->isAcquired(), "unlock" => fn () => $q->unlock(),
                        "a new lock" => fn () => (new RLock("n", $o))->tryLock()];
                    foreach ($calls as $name => $call) {
                        try {
                            $r["the coroutine\'s own flow: $name"] = $call();
                        } catch (RLockException $e) {
                            $r["the coroutine\'s own flow: $name"] = strstr($e->getMessage(), ":", true);
                        }
                    }
                    echo json_encode($r), "\n";
                    posix_kill(posix_getpid(), SIGKILL);
                });
                go(function () {
                    (new Fiber(fn () => Co::sleep(5)))->start();
                });
            });', []);
        [$r] = $this->finish($i, 60, true);
        $refused = 'rlock refuses every call in this process';
        $this->assertSame(['the Fiber ended' => true, "the coroutine's own flow: isAcquired" => $refused,
            "the coroutine's own flow: unlock" => $refused, "the coroutine's own flow: a new lock" => $refused], $r);
    }

    /**
     * Without the hooks (Swoole\Http\Server's default, or hook_flags 0) a coroutine is a context
     * all the same: rlock's sockets are its own, not PHP streams, and wait through Swoole's
     * coroutine API with or without the hooks. Another coroutine neither re-enters a held key
     * (it was reentrant across all the coroutines of the process: two inside at once the moment
     * the holder yielded) nor blocks the worker while it waits: it is handed the key when the
     * holder lets go, while a third coroutine keeps ticking.
     */
    public function testWithoutHooksCoroutinesExcludeEachOther(): void
    {
        $i = $this->swoole('
            [, $dsn] = $argv;
            Co::set(["hook_flags" => 0]);  // (Co\run turns them all on by default)
            Co\run(function () use ($dsn) {
                $a = new RLock("k", ["server" => $dsn]);
                $a->lock();
                $r = ["hooks" => Swoole\Runtime::getHookFlags()];
                $ticks = 0;
                $done = false;
                go(function () use (&$ticks, &$done) {
                    while (!$done) {
                        $ticks++;
                        Co::sleep(0.005);
                    }
                });
                $wg = new Swoole\Coroutine\WaitGroup(1);
                go(function () use ($dsn, &$r, $wg, &$ticks) {
                    $r["other, no wait"] = (new RLock("k", ["server" => $dsn]))->tryLock();
                    $b = new RLock("k", ["server" => $dsn, "wait" => 10000]);
                    $before = $ticks;
                    $r["other, waiting"] = $b->lock();
                    $r["ticked while it waited"] = $ticks > $before;
                    $b->unlock();
                    $wg->done();
                });
                Co::sleep(0.1);
                $a->unlock();
                $wg->wait();
                $done = true;
                echo json_encode($r), "\n";
            });');
        [$r] = $this->finish($i);
        $this->assertSame(['hooks' => 0, 'other, no wait' => false, 'other, waiting' => true,
            'ticked while it waited' => true], $r);
    }
}
