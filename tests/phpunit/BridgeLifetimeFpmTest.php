<?php
/*
 * The bridges under php-fpm (bridge/): a framework lock lives as long as the framework says,
 * not as long as the request. Laravel: Cache::lock($name, 600)->get() in one request, its
 * owner restoreLock()'d and released in another; two temporaries' get() in one request;
 * forceRelease() of another request's lock waking a waiter. Symfony: a Lock made with
 * autoRelease false outlives its request, and its Key, serialized, is the owner in the next
 * one; symfony/semaphore's permits likewise. Each request's response has ended before the
 * test looks at Redis.
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit -c tests/phpunit/phpunit.xml --filter BridgeLifetimeFpmTest
 */

declare(strict_types=1);

final class BridgeLifetimeFpmTest extends BridgeTestCase
{
    private ?Fpm $fpm = null;

    protected function setUp(): void
    {
        $this->fpm = Fpm::start();
        parent::setUp();
    }

    protected function tearDown(): void
    {
        $this->fpm?->stop();
        parent::tearDown();
    }

    /**
     * Serve $code as a script with the bridge and the frameworks loaded, the options in $o,
     * a Laravel cache over RLockStore in $cache and a symfony LockFactory over RLockStore in
     * $locks; request it with $query, and return what it printed, JSON-decoded.
     */
    private function request(string $code, array $query = []): mixed
    {
        $script = $this->fpm->dir . '/' . md5($code) . '.php';
        if (!is_file($script)) {
            file_put_contents($script, '<?php
require ' . var_export(__DIR__ . '/bridge.php', true) . ';
$o = ' . var_export($this->options(), true) . ';
$cache = new Illuminate\Cache\Repository(new RLock\Bridge\Laravel\RLockStore($o));
$locks = new Symfony\Component\Lock\LockFactory(new RLock\Bridge\Symfony\RLockStore($o));
' . $code);
        }
        $body = $this->fpm->get($script, http_build_query($query));
        $r = json_decode($body, true);
        $this->assertNotNull($r, "the request printed: $body");
        return $r;
    }

    public function testLaravelLockOutlivesTheRequestAndIsReleasedByItsOwnerRestoredInTheNext(): void
    {
        $r = $this->request('$lock = $cache->lock("unique:job:7", 600);
echo json_encode(["got" => $lock->get(), "owner" => $lock->owner()]);');
        $this->assertTrue($r['got']);
        $this->assertGreaterThan(590000, $this->client->pttl('bridge:unique:job:7'), 'held past the request');
        $this->assertFalse($this->request('echo json_encode($cache->lock("unique:job:7", 600)->get());'));
        $this->assertGreaterThan(590000, $this->client->pttl('bridge:unique:job:7'), 'held in between');
        $release = 'echo json_encode($cache->restoreLock("unique:job:7", $_GET["owner"])->release());';
        $this->assertFalse($this->request($release, ['owner' => 'another']));
        $this->assertTrue($this->request($release, ['owner' => $r['owner']]));
        $this->assertSame(0, $this->client->exists('bridge:unique:job:7'));
    }

    public function testLaravelTwoTemporaryLocksOfOneNameInOneRequest(): void
    {
        $this->assertSame([true, false], $this->request('echo json_encode([$cache->lock("x", 600)->get(), $cache->lock("x", 600)->get()]);'));
        $this->assertGreaterThan(590000, $this->client->pttl('bridge:x'));
    }

    public function testLaravelForceReleaseOfAnotherRequestsLockWakesItsWaiter(): void
    {
        $this->assertTrue($this->request('echo json_encode($cache->lock("job", 600)->get());'));
        $w = $this->startChild(<<<'PHP'
            $lock = (new RLock\Bridge\Laravel\RLockStore($cfg['opts']))->lock('job', 10);
            $got = $lock->block(20);
            echo json_encode(['got' => $got, 'at' => microtime(true)]), "\n";
            PHP);
        $this->awaitBlocked(1);
        $t0 = microtime(true);
        $this->assertSame('forced', $this->request('$cache->lock("job")->forceRelease(); echo json_encode("forced");'));
        $r = $this->report($w);
        $this->assertTrue($r['got']);
        // (a whole php-fpm request in it, behind nginx: a loaded machine's; not woken, 20 s)
        $this->assertLessThan(5 * self::HANDOVER_MS, ($r['at'] - $t0) * 1000, 'the waiter was not woken by the force');
        $this->finishChild($w);
    }

    public function testSymfonyLockWithoutAutoReleaseOutlivesTheRequestAndItsKeyIsTheOwnerInTheNext(): void
    {
        $r = $this->request('$key = new Symfony\Component\Lock\Key("pdf:9");
$lock = $locks->createLockFromKey($key, 300.0, false);
$got = $lock->acquire();
unset($lock);
$auto = $locks->createLock("pdf:10", 300.0);
echo json_encode(["got" => $got && $auto->acquire(), "key" => base64_encode(serialize($key))]);');
        $this->assertTrue($r['got']);
        $this->assertGreaterThan(290000, $this->client->pttl('bridge:pdf:9'), 'autoRelease false: held past the request');
        $this->assertSame(0, $this->client->exists('bridge:pdf:10'), "autoRelease: symfony's destructor released it");
        $use = '$lock = $locks->createLockFromKey(unserialize(base64_decode($_GET["key"])), 300.0, false);
$held = $lock->isAcquired();
if ($held) {
    $lock->refresh(120.0);
}
echo json_encode(["held" => $held, "other" => $locks->createLock("pdf:9")->acquire()]);
if ($_GET["release"]) {
    $lock->release();
}';
        $this->assertSame(['held' => true, 'other' => false], $this->request($use, ['key' => $r['key'], 'release' => 0]));
        $pttl = $this->client->pttl('bridge:pdf:9');
        $this->assertTrue($pttl > 110000 && $pttl <= 120000, "refreshed by the next request: pttl $pttl");
        $this->assertSame(['held' => true, 'other' => false], $this->request($use, ['key' => $r['key'], 'release' => 1]));
        $this->assertSame(0, $this->client->exists('bridge:pdf:9'), 'released by a later request');
        $this->assertSame(['held' => false, 'other' => true], $this->request($use, ['key' => $r['key'], 'release' => 0]));
    }

    public function testSymfonySemaphoreWithoutAutoReleaseOutlivesTheRequest(): void
    {
        $code = '$semaphores = new Symfony\Component\Semaphore\SemaphoreFactory(new RLock\Bridge\Symfony\RSemaphoreStore($o));
$kept = $semaphores->createSemaphore("pay", 3, 1, 300.0, false);
$auto = $semaphores->createSemaphore("pay", 3, 1, 300.0);
echo json_encode($kept->acquire() && $auto->acquire());';
        $this->assertTrue($this->request($code));
        $this->assertSame(2, (new RSemaphore('pay', 3, $this->options()))->available(), 'one permit kept, the other given back by symfony');
    }
}
