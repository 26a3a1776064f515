<?php
/*
 * Mutual exclusion across processes: a read-modify-write counter guarded by the lock never
 * loses an update, and binary keys (NUL bytes, UTF-8, 1 MiB) are the same lock in every
 * process.
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit -c tests/phpunit/phpunit.xml --filter MutualExclusionTest
 */

declare(strict_types=1);

use PHPUnit\Framework\Attributes\DataProvider;

final class MutualExclusionTest extends OneServerTestCase
{
    private const PROCESSES = 8;
    private const SECTIONS = 200;

    /**
     * One worker: waits for the start signal, then SECTIONS times takes the lock, reads the
     * counter, lets others run, writes it back plus one, and unlocks.
     */
    private const WORKER = <<<'PHP'
        [, $cfg] = $argv;
        $cfg = json_decode($cfg, true);
        $r = new Redis();
        $r->connect('127.0.0.1', $cfg['port']);
        $l = new RLock('counter', $cfg['opts']);
        $r->blPop(['go'], 30);
        $failures = 0;
        for ($i = 0; $i < $cfg['sections']; $i++) {
            if (!$l->lock()) {
                $failures++;
                continue;
            }
            $v = (int) $r->get('counter');
            usleep(random_int(0, 300));
            $r->set('counter', (string) ($v + 1));
            if (!$l->unlock()) {
                $failures++;
            }
        }
        echo json_encode(['failures' => $failures]), "\n";
        PHP;

    /**
     * Holds the key read (base64) from the file its config names, reports, and unlocks
     * linger ms after the "release" list gets an element.
     */
    private const HOLDER = <<<'PHP'
        [, $cfg] = $argv;
        $cfg = json_decode($cfg, true);
        $r = new Redis();
        $r->connect('127.0.0.1', $cfg['port']);
        $l = new RLock(base64_decode(file_get_contents($cfg['keyfile'])), $cfg['opts']);
        echo json_encode(['locked' => $l->tryLock(), 'token' => $l->token(), 'key' => base64_encode($l->key())]), "\n";
        $r->blPop(['release'], 30);
        usleep($cfg['linger'] * 1000);
        echo json_encode(['unlocked' => $l->unlock()]), "\n";
        PHP;

    private function options(array $more = []): array
    {
        return $more + ['server' => $this->redis->dsn(), 'prefix' => 'mx:', 'ttl' => 10000, 'wait' => 60000];
    }

    public function testCounterLosesNoUpdate(): void
    {
        $cfg = ['port' => $this->redis->port, 'sections' => self::SECTIONS, 'opts' => $this->options()];
        $procs = [];
        for ($i = 0; $i < self::PROCESSES; $i++) {
            $procs[] = Processes::start(self::WORKER, [json_encode($cfg)]);
        }
        // everyone connected and waiting for the start signal
        $deadline = microtime(true) + 20;
        while ((int) $this->client->info('clients')['blocked_clients'] < self::PROCESSES) {
            $this->assertLessThan($deadline, microtime(true), 'the workers did not all start');
            usleep(5000);
        }
        $t0 = microtime(true);
        $this->client->rPush('go', ...array_fill(0, self::PROCESSES, '1'));

        foreach ($procs as $i => [$proc, $pipes]) {
            $line = Processes::readLine($pipes, 120);
            [$code, , $err] = Processes::finish($proc, $pipes);
            $this->assertSame(0, $code, "worker $i: $err");
            $this->assertSame(['failures' => 0], json_decode($line, true), "worker $i: $line $err");
        }
        $elapsed = microtime(true) - $t0;

        $this->assertSame((string) (self::PROCESSES * self::SECTIONS), $this->client->get('counter'), 'an update was lost');
        // no lock key, waiter count or grant left behind
        $this->assertSame(['counter'], $this->client->keys('*'));
        $this->assertLessThan(90, $elapsed, 'far too slow for 1,600 short sections');
    }

    public function testStaticReleaseOfAHandedOverLockFreesTheKey(): void
    {
        $keyfile = tempnam(sys_get_temp_dir(), 'rlock-key-');
        file_put_contents($keyfile, base64_encode('job'));
        try {
            $cfg = ['port' => $this->redis->port, 'keyfile' => $keyfile, 'opts' => $this->options(), 'linger' => 200];
            [$proc, $pipes] = Processes::start(self::HOLDER, [json_encode($cfg)]);
            $this->assertTrue(json_decode(Processes::readLine($pipes, 20), true)['locked']);
            $this->client->rPush('release', '1');
            // queued behind the holder, handed the lock at its unlock
            $waiter = new RLock('job', $this->options());
            $this->assertTrue($waiter->lock(5000));
            $this->assertSame(['unlocked' => true], json_decode(Processes::readLine($pipes, 20), true));
            Processes::finish($proc, $pipes);

            // the token travels to whoever finishes the job, who releases by token
            $token = $waiter->token();
            $this->assertTrue(RLock::release('job', $token, $this->options()));
            $this->assertFalse($waiter->isLocked(), 'the key is still locked after its release');
            $this->assertSame(-2, $waiter->ttl());
            $this->assertSame([], array_values(array_diff($this->client->keys('*'), ['release'])));
        } finally {
            unlink($keyfile);
        }
    }

    /** @return array<string, array{0: string, 1: string}> a key and a different key that a C string would confuse with it */
    public static function binaryKeys(): array
    {
        $mib = str_repeat("\0lock-key!\xf0\x9f\x94\x92--", 1024 * 1024 / 16);
        return [
            'NUL bytes' => ["order\0one", "order\0two"],
            'leading NUL' => ["\0", "\0\0"],
            'UTF-8' => ["замок-🔒-鎖", "замок-🔓-鎖"],
            '1 MiB' => [$mib, substr($mib, 0, -1) . '!'],
        ];
    }

    /** @dataProvider binaryKeys */
    #[DataProvider('binaryKeys')]
    public function testBinaryKeysAreOneLockAcrossProcesses(string $key, string $sibling): void
    {
        $keyfile = tempnam(sys_get_temp_dir(), 'rlock-key-');
        file_put_contents($keyfile, base64_encode($key));
        try {
            $cfg = ['port' => $this->redis->port, 'keyfile' => $keyfile, 'opts' => $this->options(), 'linger' => 200];
            [$proc, $pipes] = Processes::start(self::HOLDER, [json_encode($cfg)]);
            $held = json_decode(Processes::readLine($pipes, 20), true);
            $this->assertTrue($held['locked']);
            $this->assertSame('mx:' . $key, base64_decode($held['key']));
            $this->assertSame($held['token'], $this->client->get('mx:' . $key));

            $mine = new RLock($key, $this->options(['wait' => 0]));
            $this->assertTrue($mine->isLocked());
            $this->assertFalse($mine->tryLock(), 'the other process holds this very key');
            $this->assertFalse($mine->lock(200));
            $this->assertFalse(RLock::release($key, str_repeat('0', 32), $this->options()));

            $other = new RLock($sibling, $this->options(['wait' => 0]));
            $this->assertFalse($other->isLocked());
            $this->assertTrue($other->tryLock(), 'a different key is a different lock');
            $this->assertTrue($other->unlock());

            // the holder lets go 200 ms from now; our blocked lock() is handed the key
            $this->client->rPush('release', '1');
            $this->assertTrue($mine->lock(5000));
            $this->assertSame(['unlocked' => true], json_decode(Processes::readLine($pipes, 20), true));
            [$code, , $err] = Processes::finish($proc, $pipes);
            $this->assertSame(0, $code, $err);
            $this->assertSame($mine->token(), $this->client->get('mx:' . $key));
            $this->assertTrue($mine->unlock());
            $this->assertSame([], array_values(array_diff($this->client->keys('*'), ['release'])));
        } finally {
            unlink($keyfile);
        }
    }
}
