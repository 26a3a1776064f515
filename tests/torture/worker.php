<?php
/* A torture worker: random primitives over the run's shared resources until the deadline,
 * each section logged for the witness (common.php's TortureLog):
 *   call   before the acquire call: hrtime, kind, resource
 *   enter  when it returned holding (tcall=, ttl=, token=, fence=, permits=)
 *   exit   the time before the release call, written once the release returned: ret=1|0|
 *          d (released by the destructor) | t (synchronized() threw the closure's exception)
 *          | u (symfony's release: unknown)
 *          | E:class, lost=, tcall=, tenter=, tret= (the release's return)
 *   admit / refuse  a rate limiter's decision (tcall=, tret=, n=)
 *   exc    an RLock exception a fault explains (counted); fatal: anything else (the run fails)
 * Every random choice comes from mt_srand(seed ^ index << 16 ^ incarnation << 24): the same
 * seed makes the same choices (the timing, and so what the choices meet, varies).
 *
 *   php -d extension=rlock.so worker.php CONFIG INDEX INCARNATION */

declare(strict_types=1);

require __DIR__ . '/common.php';

/* In the ZTS lane a worker is a process of tests/zts/harness.c's threads, each running this
 * as its request (zts.php; $phase, $thread): its arguments come from the environment, its
 * threads share the worker's log (O_APPEND: a line is one write) and its op numbers say the
 * thread. */
if (isset($phase)) {
    $argv = [null, getenv('TORTURE_CONFIG'), getenv('TORTURE_INDEX'), getenv('TORTURE_INCARNATION')];
    $tid = 't' . $thread . '.';
} else {
    $thread = 0;
    $tid = '';
}
[, $cfgFile, $index, $incarnation] = $argv;
$cfg = torture_config($cfgFile);
$index = (int) $index;
$incarnation = (int) $incarnation;
mt_srand($cfg['seed'] ^ ($index << 16) ^ ($incarnation << 24) ^ ($thread << 8));
$log = new TortureLog("{$cfg['dir']}/worker-$index.log", "w$index");
$log->line($tid . '0', 'start', "worker $index inc=$incarnation");

$symfony = false;
if ($cfg['symfony']) {
    require_once '/usr/share/php/Symfony/Component/Lock/autoload.php';
    require_once dirname(__DIR__, 2) . '/bridge/autoload.php';
    $symfony = true;
}

/* the worker's connection: the main server, or the relay in front of it */
$server = 'redis://127.0.0.1:' . ($cfg['relay_workers'][$index] ?? false ? $cfg['relay_port'] : $cfg['port']);
$base = ['server' => $server, 'prefix' => $cfg['prefix'], 'ttl' => $cfg['ttl'],
    'connect_timeout' => 1000, 'read_timeout' => 1000];
$masters = array_map(fn ($p) => "redis://127.0.0.1:$p", $cfg['masters']);
$nres = $cfg['resources'];
$ops = 0;
$ctx = 'm';  // the context a section runs in: m (main), f1/f2 (Fibers), c1/c2 (coroutines)

function opid(): string
{
    global $ops, $incarnation, $tid;
    return $tid . $incarnation . '.' . context() . '.' . (++$ops);
}

/* the context running: m (main), f1/f2 (the pair's Fibers), c<id> (a coroutine) */
function context(): string
{
    global $ctx;
    if (class_exists('Swoole\Coroutine', false) && Swoole\Coroutine::getCid() > 0) {
        return 'c' . Swoole\Coroutine::getCid();
    }
    return Fiber::getCurrent() !== null ? $ctx : 'm';
}

/* the work inside a section: a few ms, sometimes longer; a Fiber or coroutine lets the other
 * one run in the middle */
function work(int $ms): void
{
    $half = intdiv($ms * 1000, 2);
    usleep($half);
    $c = context();
    if ($c[0] === 'f') {
        Fiber::suspend();
    } elseif ($c[0] === 'c') {
        Swoole\Coroutine::sleep(0.001);
    }
    usleep($half);
}

function work_ms(): int
{
    $r = mt_rand(1, 100);
    return $r <= 85 ? mt_rand(1, 5) : ($r <= 97 ? mt_rand(20, 120) : mt_rand(200, 600));
}

function wait_ms(): int
{
    return mt_rand(1, 10) <= 3 ? 0 : mt_rand(50, 1500);
}

/* One section: acquire (a callable returning the enter line's extras, or null: not
 * acquired), work, release (a callable returning ret= and lost=). */
function section(string $kind, string $res, int $ttl, callable $acquire, callable $release, ?int $workMs = null): void
{
    global $log;
    $op = opid();
    $tcall = hrtime(true);
    $log->line($op, 'call', "$kind $res", $tcall);
    try {
        $extra = $acquire();
    } catch (RLockException $e) {
        $log->line($op, 'exc', "$kind $res at=acquire class=" . get_class($e) . ' ' . msg($e));
        return;
    }
    if ($extra === null) {
        $log->line($op, 'miss', "$kind $res tcall=$tcall");
        return;
    }
    $tenter = hrtime(true);
    $log->line($op, 'enter', "$kind $res tcall=$tcall ttl=$ttl $extra", $tenter);
    try {
        work($workMs ?? work_ms());
    } catch (Throwable $e) {
        // (an onLost callback's exception surfaces where PHP runs next)
        $log->line($op, 'exit', "$kind $res tcall=$tcall tenter=$tenter ttl=$ttl ret=x lost=? tret=" . hrtime(true));
        throw $e;
    }
    $texit = hrtime(true);
    // the section ends at the release's call: a worker killed before the release's reply came
    // (the relay holds a reply back up to 300 ms) had left it once Redis ran the release
    $log->line($op, 'leave', "$kind $res", $texit);
    try {
        [$ret, $lost] = $release();
    } catch (RLockException $e) {
        [$ret, $lost] = ['E:' . get_class($e), '?'];
        $log->line($op, 'exc', "$kind $res at=release class=" . get_class($e) . ' ' . msg($e));
    } catch (Throwable $e) {
        $log->line($op, 'exit', "$kind $res tcall=$tcall tenter=$tenter ttl=$ttl ret=x lost=? tret=" . hrtime(true), $texit);
        throw $e;
    }
    $log->line($op, 'exit', "$kind $res tcall=$tcall tenter=$tenter ttl=$ttl ret=$ret lost=$lost tret=" . hrtime(true), $texit);
}

function msg(Throwable $e): string
{
    return 'msg=' . str_replace([' ', "\n"], ['_', '_'], substr($e->getMessage(), 0, 160));
}

function b(bool $v): string
{
    return $v ? '1' : '0';
}

function mutex_section(string $kind, int $r): void
{
    global $base, $cfg;
    $o = $base;
    $ttl = $cfg['ttl'];
    $wait = wait_ms();
    $workMs = null;
    switch ($kind) {
        case 'fencing': $o['fencing'] = true; break;
        case 'watchdog':
            $ttl = $o['ttl'] = $cfg['watchdog_ttl'];
            $o['watchdog'] = true;
            // sometimes longer than its lease: the watchdog keeps it
            $workMs = mt_rand(1, 6) === 1 ? mt_rand($ttl, $ttl + $ttl / 2) : null;
            break;
    }
    $l = new RLock("r$r", $o);
    $inner = null;
    section($kind, "m:r$r", $ttl, function () use ($l, $wait, $kind, $o, $r, &$inner) {
        if (!$l->lock($wait)) {
            return null;
        }
        $x = 'token=' . $l->token();
        if ($kind === 'fencing') {
            $x .= ' fence=' . $l->fencingToken();
        }
        if ($kind === 'reentrant') {
            // a nested hold of the same key in the same context: counted, released at the
            // outermost unlock
            $inner = new RLock("r$r", $o);
            if (!$inner->lock(0)) {
                // the hold is no longer ours (its release says so: checked as any other)
                $inner = null;
                return $x . ' nested=lost';
            }
            $x .= ' nested=' . b($inner->token() === $l->token());
        }
        return $x;
    }, function () use ($l, $kind, &$inner) {
        if ($kind === 'destructor') {
            $lost = $l->lost();
            $l = null;
            return ['d', b($lost)];
        }
        if ($inner !== null) {
            work(mt_rand(0, 2));
            $ok = $inner->unlock();
            if (!$ok) {
                return ['0', b($l->lost())];  // the inner release: false only when lost
            }
            $inner = null;
        }
        $lost = $l->lost();
        $ok = $l->unlock();
        return [b($ok), b($lost || $l->lost())];
    }, $workMs);
    if ($kind === 'destructor') {
        unset($l);
    }
}

function pick_resources(int $n): array
{
    global $nres;
    $all = range(0, $nres - 1);
    // mt_rand-driven shuffle (shuffle() does not follow mt_srand)
    for ($i = count($all) - 1; $i > 0; $i--) {
        $j = mt_rand(0, $i);
        [$all[$i], $all[$j]] = [$all[$j], $all[$i]];
    }
    return array_slice($all, 0, $n);
}

/* run_op(), its expected exceptions counted: an RLock exception (what a fault explains) and
 * the DomainException our onLost callbacks throw; anything else ends the worker (fatal) */
function guarded_op(string $kind, array $resources): void
{
    global $log;
    try {
        run_op($kind, $resources);
    } catch (RLockException $e) {
        $log->line('-', 'exc', "$kind - class=" . get_class($e) . ' ' . msg($e));
    } catch (DomainException $e) {
        $log->line('-', 'exc', "$kind - class=DomainException " . msg($e));
    } catch (Symfony\Component\Lock\Exception\ExceptionInterface $e) {
        // symfony/lock's own for what an RLock exception says (the store wraps them)
        $log->line('-', 'exc', "$kind - class=" . get_class($e) . ' ' . msg($e));
    }
}

function run_op(string $kind, array $resources): void
{
    global $base, $cfg, $masters, $log, $symfony;
    $r = $resources[mt_rand(0, count($resources) - 1)];
    switch ($kind) {
        case 'plain': case 'reentrant': case 'fencing': case 'watchdog': case 'destructor':
            mutex_section($kind, $r);
            return;
        case 'redlock':
            // waiters in order (the queues) or the vote again and again, both over the same key
            $l = new RLock("r$r", ['servers' => $masters, 'fair' => mt_rand(0, 1) === 1] + array_diff_key($base, ['server' => 1, 'fair' => 1]));
            $wait = wait_ms();
            section('redlock', "rl:r$r", $cfg['ttl'], fn () => $l->lock($wait) ? 'token=' . $l->token() : null,
                fn () => [b($l->unlock()), b($l->lost())]);
            return;
        case 'cluster':
            // (the key's slot on one of 3 masters: the resources spread over them)
            $l = new RLock("c$r", ['cluster' => $cfg['cluster'], 'fencing' => mt_rand(0, 1) === 1, 'watchdog' => mt_rand(0, 3) === 0]
                + array_diff_key($base, ['server' => 1]));
            $wait = wait_ms();
            section('cluster', "cl:c$r", $cfg['ttl'], fn () => $l->lock($wait) ? 'token=' . $l->token() : null,
                fn () => [b($l->unlock()), b($l->lost())]);
            return;
        case 'read': case 'write':
            $rw = new RReadWriteLock("w$r", $base);
            $l = $kind === 'read' ? $rw->readLock() : $rw->writeLock();
            $wait = wait_ms();
            section($kind, "rw:w$r", $cfg['ttl'], fn () => $l->lock($wait) ? 'token=' . $l->token() : null,
                fn () => [b($l->unlock()), b($l->lost())]);
            return;
        case 'sem':
            $s = new RSemaphore("s$r", $cfg['permits'], $base);
            $n = mt_rand(1, 2);
            $wait = wait_ms();
            section('sem', "sem:s$r", $cfg['ttl'], fn () => $s->acquire($n, $wait) ? "permits=$n held=" . $s->held() : null,
                fn () => [b($s->release()), '0']);
            return;
        case 'multi':
            $keys = count($resources) >= 2 ? array_slice($resources, 0, mt_rand(2, count($resources))) : $resources;
            $names = array_map(fn ($k) => "r$k", $keys);
            $res = implode('+', array_map(fn ($k) => "m:r$k", $keys));
            $l = RLock::multi($names, $base);
            $wait = wait_ms();
            section('multi', $res, $cfg['ttl'], fn () => $l->lock($wait) ? 'token=' . $l->token() : null,
                fn () => [b($l->unlock()), b($l->lost())]);
            return;
        case 'sync':
            // synchronized(): the closure logs its own enter and exit; sometimes it throws
            $l = new RLock("r$r", $base);
            $op = opid();
            $tcall = hrtime(true);
            $log->line($op, 'call', "sync m:r$r", $tcall);
            $throw = mt_rand(1, 3) === 1;
            $st = ['tenter' => 0, 'texit' => 0];
            try {
                $l->synchronized(function (RLock $me) use ($log, $op, $tcall, $r, $throw, &$st, $cfg) {
                    $st['tenter'] = hrtime(true);
                    $log->line($op, 'enter', "sync m:r$r tcall=$tcall ttl={$cfg['ttl']} token=" . $me->token(), $st['tenter']);
                    work(work_ms());
                    $st['texit'] = hrtime(true);
                    $log->line($op, 'leave', "sync m:r$r", $st['texit']);
                    if ($throw) {
                        throw new DomainException('thrown by the closure');
                    }
                    return 1;
                }, wait_ms());
                $ret = '1';
            } catch (DomainException) {
                $ret = 't';
            } catch (RLockTimeoutException) {
                $log->line($op, 'miss', "sync m:r$r tcall=$tcall");
                return;
            } catch (RLockLostException) {
                $ret = '0';
            } catch (RLockException $e) {
                $ret = 'E:' . get_class($e);
                $log->line($op, 'exc', "sync m:r$r at=sync class=" . get_class($e) . ' ' . msg($e));
            }
            if ($st['tenter']) {
                $log->line($op, 'exit', "sync m:r$r tcall=$tcall tenter={$st['tenter']} ttl={$cfg['ttl']} ret=$ret lost=? tret=" . hrtime(true), $st['texit']);
            }
            return;
        case 'onlost':
            // a watched lock whose onLost callback throws or takes another lock
            // (a short lease: a SIGSTOP, a restart or a busy server makes it lost)
            $o = ['watchdog' => true, 'ttl' => $cfg['onlost_ttl']] + $base;
            $l = new RLock("r$r", $o);
            $again = mt_rand(0, 1) === 1;
            $l->onLost(function (RLock $lost) use ($again, $o, $log) {
                $log->line('-', 'onlost', 'key=' . $lost->key());
                if ($again) {
                    $other = new RLock('onlost-again', $o);
                    $other->tryLock();
                    $other->unlock();
                    return;
                }
                throw new DomainException('thrown by onLost');
            });
            $wait = wait_ms();
            try {
                // held past its lease: the watchdog keeps it, unless a stop or an outage comes
                section('onlost', "m:r$r", $cfg['onlost_ttl'], fn () => $l->lock($wait) ? 'token=' . $l->token() : null,
                    fn () => [b($l->unlock()), b($l->lost())], mt_rand($cfg['onlost_ttl'], 3 * $cfg['onlost_ttl']));
            } catch (DomainException) {
                $log->line('-', 'exc', 'onlost - class=DomainException');
            }
            return;
        case 'rate':
            // a limiter holds nothing: a lock's ttl is refused
            $rl = new RRateLimiter('rl0', $cfg['rate_limit'], $cfg['rate_period'],
                array_diff_key($base, ['ttl' => 1]) + ['burst' => $cfg['rate_burst']]);
            $n = mt_rand(1, 2);
            $op = opid();
            $tcall = hrtime(true);
            try {
                $ok = mt_rand(0, 1) ? $rl->tryAcquire($n) : $rl->acquire($n, mt_rand(0, 300));
            } catch (RLockException $e) {
                $log->line($op, 'exc', 'rate rate:rl0 class=' . get_class($e) . ' ' . msg($e));
                return;
            }
            $log->line($op, $ok ? 'admit' : 'refuse', "rate rate:rl0 tcall=$tcall n=$n tret=" . hrtime(true));
            return;
        case 'symfony':
            // symfony/lock's Lock over the bridge's RLockStore: the same Redis key as an RLock
            $factory = new Symfony\Component\Lock\LockFactory(new RLock\Bridge\Symfony\RLockStore($base));
            $lock = $factory->createLock("r$r", $cfg['ttl'] / 1000, false);
            section('symfony', "m:r$r", $cfg['ttl'], fn () => $lock->acquire(false) ? 'token=-' : null, function () use ($lock) {
                try {
                    // (the store's delete() does not say whether the hold was still there: u)
                    $lock->release();
                    return ['u', '?'];
                } catch (Symfony\Component\Lock\Exception\LockReleasingException $e) {
                    // the store's release found the hold gone (false) or could not ask (a cause)
                    return [$e->getPrevious() instanceof RLockException ? 'E:' . get_class($e->getPrevious()) : '0', '?'];
                }
            });
            return;
    }
    throw new LogicException("no kind $kind");
}

/* the kinds and their weights */
$kinds = ['plain' => 10, 'reentrant' => 6, 'fencing' => 6, 'watchdog' => 5, 'destructor' => 5, 'redlock' => 6,
    'read' => 7, 'write' => 6, 'sem' => 8, 'multi' => 6, 'sync' => 6, 'onlost' => 3, 'rate' => 6];
if ($symfony) {
    $kinds['symfony'] = 4;
}
if ($cfg['cluster'] ?? []) {
    $kinds['cluster'] = 5;
}
/* in a Fiber or coroutine: the kinds that take only the context's own resources */
$ctxKinds = ['plain' => 4, 'reentrant' => 2, 'fencing' => 2, 'destructor' => 2, 'read' => 2, 'write' => 2, 'sem' => 2, 'multi' => 2];

function pick(array $weights): string
{
    $r = mt_rand(1, array_sum($weights));
    foreach ($weights as $k => $w) {
        if (($r -= $w) <= 0) {
            return $k;
        }
    }
    return array_key_first($weights);
}

/* Two contexts interleaving on disjoint resources: Fibers, or Swoole coroutines. */
function pair(array $ctxKinds): void
{
    global $ctx, $cfg;
    $res = pick_resources(4);
    $sets = [array_slice($res, 0, 2), array_slice($res, 2, 2)];
    $n = mt_rand(1, 3);
    $body = function (int $which) use ($sets, $n, $ctxKinds) {
        for ($i = 0; $i < $n; $i++) {
            guarded_op(pick($ctxKinds), $sets[$which]);
        }
    };
    if ($cfg['coroutines']) {
        Swoole\Coroutine\run(function () use ($body) {
            $wg = new Swoole\Coroutine\WaitGroup();
            foreach ([0, 1] as $w) {
                $wg->add();
                Swoole\Coroutine::create(function () use ($body, $w, $wg) {
                    try {
                        $body($w);
                    } finally {
                        $wg->done();
                    }
                });
            }
            $wg->wait();
        });
        return;
    }
    // the same choices whatever the timing: the Fibers draw from mt_rand in the order they run
    $fibers = [new Fiber(fn () => $body(0)), new Fiber(fn () => $body(1))];
    $started = [false, false];
    for ($round = 0; $round < 1000; $round++) {
        $alive = 0;
        foreach ($fibers as $i => $f) {
            if ($f->isTerminated()) {
                continue;
            }
            $ctx = 'f' . ($i + 1);
            $started[$i] ? $f->resume() : $f->start();
            $started[$i] = true;
            $ctx = 'm';
            $alive += $f->isTerminated() ? 0 : 1;
        }
        if ($alive === 0) {
            break;
        }
    }
}

if ($cfg['coroutines']) {
    // every hook, but curl's where the curl extension is not loaded (Swoole warns of each)
    Swoole\Runtime::enableCoroutine(extension_loaded('curl') ? SWOOLE_HOOK_ALL
        : SWOOLE_HOOK_ALL & ~(SWOOLE_HOOK_CURL | SWOOLE_HOOK_NATIVE_CURL));
}
torture_go($cfg);
$deadline = $cfg['deadline'];
$stop = $cfg['dir'] . '/stop';
try {
    for ($i = 0; $i < 1000000 && hrtime(true) < $deadline && !file_exists($stop); $i++) {
        if (mt_rand(1, 100) <= $cfg['pair_pct']) {
            try {
                pair($ctxKinds);
            } catch (RLockException|DomainException $e) {
                // (an onLost callback's exception surfaces where PHP runs next: between ops)
                $log->line('-', 'exc', 'pair class=' . get_class($e) . ' ' . msg($e));
            }
            continue;
        }
        guarded_op(pick($kinds), range(0, $nres - 1));
        // now and then a pause, so that the others get their turn
        if (mt_rand(1, 10) === 1) {
            try {
                usleep(mt_rand(1000, 20000));
            } catch (DomainException $e) {
                $log->line('-', 'exc', 'pause class=DomainException ' . msg($e));
            }
        }
    }
} catch (Throwable $e) {
    $log->line('-', 'fatal', get_class($e) . ' ' . msg($e) . ' at=' . basename($e->getFile()) . ':' . $e->getLine());
    fwrite(STDERR, "worker $index: " . get_class($e) . ': ' . $e->getMessage() . "\n" . $e->getTraceAsString() . "\n");
    exit(3);
}
$log->line($tid . '0', 'end', "worker $index inc=$incarnation ops=$ops");
exit(0);
