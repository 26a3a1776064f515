<?php
/*
 * RLock\Bridge\Symfony\RReadWriteLockStore (bridge/): symfony/lock's shared locks over
 * RReadWriteLock: what symfony's shared-lock store suite asks (readers share, a writer is
 * alone, promotion and demotion of one Key), and waits across processes woken natively.
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit -c tests/phpunit/phpunit.xml --filter BridgeSharedLockTest
 */

declare(strict_types=1);

use RLock\Bridge\Symfony\RReadWriteLockStore;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\LockFactory;

final class BridgeSharedLockTest extends BridgeTestCase
{
    /** A child: a Lock on 'k', its read side when $cfg['read'], acquired blocking; reports when. */
    private const WAITER = <<<'PHP'
        $lock = (new Symfony\Component\Lock\LockFactory(new RLock\Bridge\Symfony\RReadWriteLockStore($cfg['opts'])))->createLock('k');
        $got = $cfg['read'] ? $lock->acquireRead(true) : $lock->acquire(true);
        echo json_encode(['got' => $got, 'at' => microtime(true), 'held' => $lock->isAcquired()]), "\n";
        $lock->release();
        PHP;

    /** A child: the read Lock of a serialized Key ($cfg['key']): whether it holds, whether a
     * writer gets in, and whether it holds after its release. */
    private const KEY_USER = <<<'PHP'
        $factory = new Symfony\Component\Lock\LockFactory(new RLock\Bridge\Symfony\RReadWriteLockStore($cfg['opts']));
        $lock = $factory->createLockFromKey(unserialize(base64_decode($cfg['key'])), 300.0, false);
        $held = $lock->isAcquired();
        $writer = $factory->createLock('k')->acquire();
        $lock->release();
        echo json_encode(['held' => $held, 'writer' => $writer, 'after' => $lock->isAcquired()]), "\n";
        PHP;

    private function store(): RReadWriteLockStore
    {
        return new RReadWriteLockStore($this->options());
    }

    /** Whether $store sees each key as saved. */
    private function held(RReadWriteLockStore $store, Key ...$keys): array
    {
        return array_map(fn (Key $k): bool => $store->exists($k), $keys);
    }

    private function assertConflicts(callable $save, string $what): void
    {
        try {
            $save();
            $this->fail("$what was saved");
        } catch (LockConflictedException) {
            $this->addToAssertionCount(1);
        }
    }

    public function testAReadLockWithoutAutoReleaseOutlivesItsObjectAndItsKeyIsTheOwnerElsewhere(): void
    {
        $factory = new LockFactory($this->store());
        $key = new Key('k');
        $lock = $factory->createLockFromKey($key, 300.0, false);
        $this->assertTrue($lock->acquireRead());
        unset($lock);
        $this->assertFalse(($writer = $factory->createLock('k'))->acquire(), 'the reader kept it');
        $c = $this->startChild(self::KEY_USER, ['key' => base64_encode(serialize($key))]);
        $r = $this->report($c);
        $this->finishChild($c);
        $this->assertSame(['held' => true, 'writer' => false, 'after' => false], $r);
        $this->assertTrue($writer->acquire(), 'released by the other process');
    }

    public function testReadersShareAndKeepAWriterOut(): void
    {
        $store = $this->store();
        [$r1, $r2, $w] = [new Key('k'), new Key('k'), new Key('k')];
        $store->saveRead($r1);
        $store->saveRead($r2);
        $this->assertSame([true, true, false], $this->held($store, $r1, $r2, $w));
        $this->assertConflicts(fn () => $store->save($w), 'a writer while two read');
        $this->assertSame([true, true, false], $this->held($store, $r1, $r2, $w), 'after the conflict');
        $store->delete($r1);
        $this->assertConflicts(fn () => $store->save($w), 'a writer while one reads');
        $store->delete($r2);
        $store->save($w);
        $this->assertSame([false, false, true], $this->held($store, $r1, $r2, $w));
        $store->delete($w);
        $this->assertSame([], $this->client->keys('*'), 'nothing left');
    }

    public function testAWriterKeepsReadersOut(): void
    {
        $store = $this->store();
        [$w, $r] = [new Key('k'), new Key('k')];
        $store->save($w);
        $this->assertConflicts(fn () => $store->saveRead($r), 'a reader while one writes');
        $this->assertSame([true, false], $this->held($store, $w, $r));
        $store->delete($w);
        $store->saveRead($r);
        $this->assertSame([false, true], $this->held($store, $w, $r));
    }

    public function testTheOnlyReaderIsPromotedToWriter(): void
    {
        $store = $this->store();
        [$k1, $k2] = [new Key('k'), new Key('k')];
        $store->saveRead($k1);
        $store->save($k1);
        $this->assertConflicts(fn () => $store->saveRead($k2), 'a reader while the promoted one writes');
        $store->delete($k1);
        $store->saveRead($k2);
        $this->assertSame([false, true], $this->held($store, $k1, $k2));
    }

    public function testAReaderAmongOthersIsNotPromotedAndStillReads(): void
    {
        $store = $this->store();
        [$k1, $k2, $w] = [new Key('k'), new Key('k'), new Key('k')];
        $store->saveRead($k1);
        $store->saveRead($k2);
        $this->assertConflicts(fn () => $store->save($k1), 'a reader promoted while another reads');
        $this->assertSame([true, true], $this->held($store, $k1, $k2));
        $this->assertConflicts(fn () => $store->save($w), 'a writer while two read');
    }

    public function testAWriterIsDemotedToReader(): void
    {
        $store = $this->store();
        [$k1, $k2] = [new Key('k'), new Key('k')];
        $store->save($k1);
        $store->saveRead($k1);
        $store->saveRead($k2);
        $this->assertSame([true, true], $this->held($store, $k1, $k2));
    }

    public function testLockFactoryReadersShareAcrossProcessesAndAWaitingWriterIsWokenByTheLastReader(): void
    {
        $factory = new LockFactory($this->store());
        $reader = $factory->createLock('k');
        $this->assertTrue($reader->acquireRead());
        // another process reads at once
        $r = $this->startChild(self::WAITER, ['read' => true]);
        $this->assertTrue($this->report($r)['got']);
        $this->finishChild($r);
        // a writer waits, natively, until the last reader leaves
        $w = $this->startChild(self::WAITER, ['read' => false]);
        $this->awaitBlocked(1);
        $t0 = microtime(true);
        $reader->release();
        $report = $this->report($w);
        $this->assertTrue($report['got'] && $report['held']);
        $this->assertLessThan(self::HANDOVER_MS, ($report['at'] - $t0) * 1000, 'the writer was let in late');
        $this->finishChild($w);
    }

    public function testAReaderWaitingInAnotherProcessIsWokenByTheWritersRelease(): void
    {
        $writer = (new LockFactory($this->store()))->createLock('k');
        $this->assertTrue($writer->acquire());
        $r = $this->startChild(self::WAITER, ['read' => true]);
        $this->awaitBlocked(1);
        $t0 = microtime(true);
        $writer->release();
        $report = $this->report($r);
        $this->assertTrue($report['got'] && $report['held']);
        $this->assertLessThan(self::HANDOVER_MS, ($report['at'] - $t0) * 1000, 'the reader was let in late');
        $this->finishChild($r);
    }
}
