<?php
/*
 * rlock.stats_keys is read once, at startup (the master maps the statistics' shared memory in
 * MINIT): a pool's php_admin_value[rlock.stats_keys], applied in each worker as it starts
 * (and restored as requests end), changes neither the table nor whether its calls throw.
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit tests/phpunit/StatsIniFpmTest.php
 */

declare(strict_types=1);

use PHPUnit\Framework\TestCase;

final class StatsIniFpmTest extends TestCase
{
    private ?Fpm $fpm = null;

    protected function tearDown(): void
    {
        $this->fpm?->stop();
        parent::tearDown();
    }

    /** @return list<string> what the page says on each of $n requests */
    private function pages(array $pool, int $n): array
    {
        $this->fpm = Fpm::start(1, ['rlock.stats_keys=16'], $pool);
        $script = "{$this->fpm->dir}/status.php";
        file_put_contents($script, '<?php
try {
    $s = rlock_status();
    echo "enabled: ", var_export($s["enabled"], true), ", keys at most: ", $s["table"]["keys"];
} catch (ValueError $e) {
    echo get_class($e), ": ", $e->getMessage();
}');
        $out = [];
        for ($i = 0; $i < $n; $i++) {
            $out[] = $this->fpm->get($script);
        }
        return $out;
    }

    public function testAPoolsAdminValueIsNotTheStartupSetting(): void
    {
        $want = $this->pages([], 1)[0];
        $this->fpm->stop();
        $this->fpm = null;
        $this->assertStringStartsWith('enabled: true', $want);
        // an invalid value and a valid other one: neither refuses the calls nor changes the table
        foreach (['abc', '8'] as $value) {
            $got = $this->pages(["php_admin_value[rlock.stats_keys] = $value"], 2);
            $this->assertSame([$want, $want], $got, "php_admin_value[rlock.stats_keys] = $value");
            $this->fpm->stop();
            $this->fpm = null;
        }
    }
}
