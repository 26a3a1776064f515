<?php
/*
 * Waiters across processes: a blocked lock() is handed the lock when the holder unlocks,
 * waiters are served first come first served, and a waiter that died or gave up while
 * queued stalls nobody.
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit -c tests/phpunit/phpunit.xml --filter WaitersTest
 */

declare(strict_types=1);

final class WaitersTest extends OneServerTestCase
{
    protected const REPORT_SECONDS = 30;

    /** A hand-over is one round trip; anything near this bound means the waiter polled or slept. */
    private const HANDOVER_MS = 1000;

    /**
     * A waiter: takes the lock (waiting up to argv wait ms), reports when it got it, pushes
     * its name on the "order" list, holds for argv hold ms, unlocks.
     */
    private const WAITER = <<<'PHP'
        [, $cfg] = $argv;
        $cfg = json_decode($cfg, true);
        $r = new Redis();
        $r->connect('127.0.0.1', $cfg['port']);
        $l = new RLock($cfg['key'], $cfg['opts']);
        $got = $l->lock($cfg['wait']);
        $at = microtime(true);
        if ($got) {
            $r->rPush('order', $cfg['name']);
            usleep($cfg['hold'] * 1000);
        }
        echo json_encode(['got' => $got, 'at' => $at, 'unlocked' => $got ? $l->unlock() : null]), "\n";
        PHP;

    private function options(array $more = []): array
    {
        return $more + ['server' => $this->redis->dsn(), 'prefix' => 'waiters:', 'ttl' => 60000, 'reentrant' => false];
    }

    /** Start a waiter process; returns its index in $this->children. */
    private function startWaiter(string $name, int $wait = 30000, int $hold = 0, array $opts = []): int
    {
        $cfg = ['port' => $this->redis->port, 'key' => 'k', 'opts' => $this->options($opts),
            'wait' => $wait, 'hold' => $hold, 'name' => $name];
        $this->children[] = Processes::start(self::WAITER, [json_encode($cfg)]);
        return count($this->children) - 1;
    }

    private function blockedClients(): int
    {
        return (int) $this->client->info('clients')['blocked_clients'];
    }

    private function awaitBlocked(int $n): void
    {
        $this->await(fn() => $this->blockedClients() === $n, "$n clients are blocked");
    }

    /** SIGKILL child i, a blocked waiter, and await Redis seeing it go: stillBlocked left. */
    private function killWaiter(int $i, int $stillBlocked): void
    {
        posix_kill(proc_get_status($this->children[$i][0])['pid'], SIGKILL);
        $this->await(fn() => $this->blockedClients() === $stillBlocked, 'Redis saw the killed waiter go');
    }

    private function assertNoLeftovers(): void
    {
        $keys = array_values(array_diff($this->client->keys('*'), ['order']));
        $this->assertSame([], $keys, 'keys left behind');
    }

    public function testBlockedWaiterIsHandedTheLockOnUnlock(): void
    {
        $holder = new RLock('k', $this->options());
        $this->assertTrue($holder->lock());
        $w = $this->startWaiter('w');
        $this->awaitBlocked(1);

        $t0 = microtime(true);
        $this->assertTrue($holder->unlock());
        $r = $this->report($w);
        $this->assertTrue($r['got']);
        $this->assertLessThan(self::HANDOVER_MS, ($r['at'] - $t0) * 1000, 'hand-over took too long');
        $this->assertTrue($r['unlocked']);
        $this->assertSame(0, Processes::finish(...$this->children[$w])[0]);
        unset($this->children[$w]);
        $this->assertNoLeftovers();
    }

    public function testWaitersAreServedFirstComeFirstServed(): void
    {
        $holder = new RLock('k', $this->options());
        $this->assertTrue($holder->lock());
        $names = ['first', 'second', 'third', 'fourth', 'fifth'];
        $idx = [];
        foreach ($names as $n => $name) {
            // each one blocked before the next arrives
            $idx[$name] = $this->startWaiter($name, 30000, 20);
            $this->awaitBlocked($n + 1);
        }
        $t0 = microtime(true);
        $this->assertTrue($holder->unlock());
        $last = $t0;
        foreach ($names as $name) {
            $r = $this->report($idx[$name]);
            $this->assertTrue($r['got'], "$name did not get the lock");
            $this->assertTrue($r['unlocked'], "$name lost the lock it was handed");
            $last = max($last, $r['at']);
        }
        $this->assertSame($names, $this->client->lRange('order', 0, -1));
        // five hand-overs and five 20 ms holds, not five lease expiries
        $this->assertLessThan(5 * (20 + self::HANDOVER_MS), ($last - $t0) * 1000);
        foreach ($idx as $i) {
            $this->assertSame(0, Processes::finish(...$this->children[$i])[0]);
            unset($this->children[$i]);
        }
        $this->assertNoLeftovers();
    }

    public function testWaiterKilledWhileQueuedDoesNotStallTheNext(): void
    {
        $holder = new RLock('k', $this->options());
        $this->assertTrue($holder->lock());
        $dead = $this->startWaiter('dead');
        $this->awaitBlocked(1);
        $next = $this->startWaiter('next');
        $this->awaitBlocked(2);

        $this->killWaiter($dead, 1);

        $t0 = microtime(true);
        $this->assertTrue($holder->unlock());
        $r = $this->report($next);
        $this->assertTrue($r['got']);
        $this->assertLessThan(self::HANDOVER_MS, ($r['at'] - $t0) * 1000, 'the next waiter was stalled');
        $this->assertSame(['next'], $this->client->lRange('order', 0, -1));
    }

    public function testLockHandedToAKilledWaiterGoesToTheNextComer(): void
    {
        $holder = new RLock('k', $this->options());
        $this->assertTrue($holder->lock());
        $dead = $this->startWaiter('dead');
        $this->awaitBlocked(1);
        $this->killWaiter($dead, 0);

        // the release may count the dead waiter as queued: whatever it leaves for it must not
        // keep the key from a newcomer for the dead waiter's ttl
        $this->assertTrue($holder->unlock());
        $newcomer = new RLock('k', $this->options());
        $t0 = microtime(true);
        $this->assertTrue($newcomer->lock(5000));
        $this->assertLessThan(self::HANDOVER_MS, (microtime(true) - $t0) * 1000);
        $this->assertTrue($newcomer->isAcquired());
        $this->assertTrue($newcomer->unlock());
    }

    public function testKeyIsFreeAfterTheLastUnlockWhenAQueuedWaiterWasKilled(): void
    {
        $holder = new RLock('k', $this->options());
        $this->assertTrue($holder->lock());
        $dead = $this->startWaiter('dead');
        $this->awaitBlocked(1);
        $this->killWaiter($dead, 0);
        $this->assertTrue($holder->unlock());

        // nobody holds the lock now: isLocked() and ttl() must say so, and keep saying so
        // after a newcomer's hold too, not report a lease for a waiter that is dead
        $newcomer = new RLock('k', $this->options());
        $this->assertTrue($newcomer->tryLock());
        $this->assertTrue($newcomer->unlock());
        $this->assertFalse($newcomer->isLocked(), 'still locked for a dead waiter');
        $this->assertSame(-2, $newcomer->ttl());
    }

    public function testWaiterThatTimedOutDoesNotStallTheNext(): void
    {
        $holder = new RLock('k', $this->options());
        $this->assertTrue($holder->lock());
        $quitter = $this->startWaiter('quitter', 300);
        $patient = $this->startWaiter('patient', 30000);
        $r = $this->report($quitter);
        $this->assertFalse($r['got']);
        $this->awaitBlocked(1);

        $t0 = microtime(true);
        $this->assertTrue($holder->unlock());
        $r = $this->report($patient);
        $this->assertTrue($r['got']);
        $this->assertLessThan(self::HANDOVER_MS, ($r['at'] - $t0) * 1000, 'the patient waiter was stalled');
        foreach ([$quitter, $patient] as $i) {
            $this->assertSame(0, Processes::finish(...$this->children[$i])[0]);
            unset($this->children[$i]);
        }
        $this->assertNoLeftovers();
    }

    public function testKeyIsFreeAfterTheOnlyWaiterTimedOut(): void
    {
        $holder = new RLock('k', $this->options());
        $this->assertTrue($holder->lock());
        $quitter = $this->startWaiter('quitter', 300);
        $this->assertFalse($this->report($quitter)['got']);
        $this->assertTrue($holder->unlock());

        $this->assertFalse($holder->isLocked(), 'the key is still held for a waiter that gave up');
        $other = new RLock('k', $this->options());
        $this->assertTrue($other->tryLock());
        $this->assertTrue($other->unlock());
        $this->assertSame(0, Processes::finish(...$this->children[$quitter])[0]);
        unset($this->children[$quitter]);
        $this->assertNoLeftovers();
    }
}
