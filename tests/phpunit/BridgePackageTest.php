<?php
/*
 * The bridge package (bridge/) as users install it: its stubs (bridge/stubs/rlock.php, for
 * IDEs and PHPStan) are what rlock.stub.php makes and declare what the extension declares;
 * the options' shapes (RLock\Bridge\Options) are the extension's option table, each taken by
 * the classes that take it; the in-memory test doubles run without the extension
 * (bridge/polyfill.php); and composer installs the package from a path repository.
 *
 *   php -d extension=modules/rlock.so /usr/bin/phpunit -c tests/phpunit/phpunit.xml --filter BridgePackageTest
 */

declare(strict_types=1);

use PHPUnit\Framework\TestCase;
use RLock\Bridge\Options;

final class BridgePackageTest extends TestCase
{
    private const REPO = __DIR__ . '/../..';

    /** Prints, as JSON, every class, interface and method the extension declares, as reflection sees them. */
    private const SURFACE = <<<'PHP'
        $out = [];
        foreach (['RLock\LockInterface', 'RLock\SemaphoreInterface', 'RLock\ReadWriteLockInterface', 'RLock', 'RSemaphore',
                'RReadWriteLock', 'RLockException', 'RLockConnectionException', 'RLockTimeoutException', 'RLockLostException'] as $name) {
            $c = new ReflectionClass($name);
            $methods = [];
            foreach ($c->getMethods() as $m) {
                if ($m->getDeclaringClass()->getName() !== $name) {
                    continue;
                }
                $methods[$m->getName()] = [($m->isStatic() ? 'static ' : '') . $m->getReturnType(), array_map(fn (ReflectionParameter $p) =>
                    $p->getType() . ' $' . $p->getName() . ($p->isOptional() ? ' = ' . var_export($p->getDefaultValue(), true) : '')
                    . (count($p->getAttributes('SensitiveParameter')) ? ' sensitive' : ''), $m->getParameters())];
            }
            ksort($methods);
            $out[$name] = ['final' => $c->isFinal(), 'interface' => $c->isInterface(), 'parent' => get_parent_class($name),
                'implements' => array_values(class_implements($name)), 'methods' => $methods];
        }
        echo json_encode($out, JSON_PRETTY_PRINT);
        PHP;

    /** Run `php -n` (no extension, no php.ini) with $code; its exit code and output. */
    private static function phpWithoutTheExtension(string $code): array
    {
        [$proc, $pipes] = Processes::startCommand([PHP_BINARY, '-n', '-d', 'display_errors=stderr', '-r', $code]);
        [$code, $out, $err] = Processes::finish($proc, $pipes);
        return [$code, $out . $err];
    }

    public function testTheStubsAreWhatRlockStubPhpMakes(): void
    {
        exec(escapeshellarg(PHP_BINARY) . ' ' . escapeshellarg(self::REPO . '/scripts/gen_bridge_stubs.php') . ' --check 2>&1', $out, $rc);
        $this->assertSame(0, $rc, implode("\n", $out));
    }

    public function testTheStubsDeclareWhatTheExtensionDeclares(): void
    {
        [$rc, $stubs] = self::phpWithoutTheExtension('require ' . var_export(self::REPO . '/bridge/stubs/rlock.php', true) . '; ' . self::SURFACE);
        $this->assertSame(0, $rc, $stubs);
        ob_start();
        eval(self::SURFACE);
        $this->assertSame(json_decode(ob_get_clean(), true), json_decode($stubs, true));
    }

    public function testTheOptionsAreTheExtensionsOptionTable(): void
    {
        preg_match_all('/\bOPT(?:_RANGE|_MS)?\("(\w+)",\s*(\w+)/', file_get_contents(self::REPO . '/src/core/options.c'), $m, PREG_SET_ORDER);
        $table = [];
        foreach ($m as [, $name, $kind]) {
            $table[$name] = match ($kind) {
                'OPT_BOOL' => 'bool',
                'OPT_STRING', 'OPT_SERVER' => 'string',
                'OPT_SERVERS', 'OPT_NODES', 'OPT_SENTINELS' => 'list<string>',
                default => 'int',  // OPT_RANGE's and OPT_MS' field
            };
        }
        ksort($table);
        $types = Options::TYPES;
        ksort($types);
        $this->assertSame($table, $types);
    }

    /** A value of each option that its class takes at construction (nothing is sent to Redis). */
    private static function valid(string $name): array
    {
        return match ($name) {
            'server' => ['server' => 'redis://127.0.0.1:1'],
            'servers' => ['servers' => ['redis://127.0.0.1:1', 'redis://127.0.0.1:2', 'redis://127.0.0.1:3']],
            'cluster' => ['cluster' => ['127.0.0.1:1']],
            'sentinel', 'service' => ['sentinel' => ['127.0.0.1:1'], 'service' => 'master'],
            'tls_cert', 'tls_key' => ['tls_cert' => '/nonexistent.crt', 'tls_key' => '/nonexistent.key'],
            'tls_ca', 'tls_server_name', 'prefix' => [$name => 'x'],
            'sync_replicas' => ['sync_replicas' => 1],
            default => [$name => Options::TYPES[$name] === 'bool' ? true : 1000],
        };
    }

    public function testEachClassTakesTheOptionsOfItsShapeAndRefusesTheOthers(): void
    {
        $make = [
            'RLock' => fn (array $o) => new RLock('k', $o),
            'RLock::multi' => fn (array $o) => RLock::multi(['{t}a', '{t}b'], $o),
            'RSemaphore' => fn (array $o) => new RSemaphore('s', 2, $o),
            'RReadWriteLock' => fn (array $o) => new RReadWriteLock('k', $o),
            'RRateLimiter' => fn (array $o) => new RRateLimiter('r', 10, 1000, $o),
        ];
        foreach ($make as $of => $new) {
            foreach (Options::TYPES as $name => $type) {
                $taken = array_key_exists($name, Options::of($of));
                try {
                    $new(self::valid($name));
                    $this->assertTrue($taken, "$of takes \"$name\", which its shape lacks");
                } catch (ValueError $e) {
                    $this->assertFalse($taken, "$of refuses \"$name\" of its shape: " . $e->getMessage());
                    $this->assertStringContainsString("\"$name\"", $e->getMessage());
                }
            }
        }
    }

    public function testTheInMemoryDoublesRunWithoutTheExtension(): void
    {
        [$rc, $out] = self::phpWithoutTheExtension('require ' . var_export(self::REPO . '/bridge/autoload.php', true) . ';
use RLock\Bridge\Testing\InMemoryLock;
use RLock\Bridge\Testing\InMemorySemaphore;
$charge = fn (RLock\LockInterface $l): string => $l->synchronized(fn () => "charged");
$a = new InMemoryLock("k", ["reentrant" => false]);
$a->lock();
try {
    $charge(new InMemoryLock("k", ["reentrant" => false]));
} catch (RLockTimeoutException $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
$a->unlock();
echo $charge(new InMemoryLock("k")), "\n";
$s = new InMemorySemaphore("s", 2);
echo $s instanceof RLock\SemaphoreInterface && $s->tryAcquire(2) && !(new InMemorySemaphore("s", 2))->tryAcquire() ? "exclusive\n" : "shared\n";
echo extension_loaded("rlock") ? "loaded\n" : "not loaded\n";');
        $this->assertSame(0, $rc, $out);
        $this->assertSame("RLockTimeoutException: Could not acquire the lock \"rlock:k\" within 0 ms\ncharged\nexclusive\nnot loaded\n", $out);
    }

    public function testComposerInstallsThePackageFromAPathRepository(): void
    {
        exec('command -v composer', $found, $rc);
        $this->assertSame(0, $rc, 'composer is not installed (apt-get install composer)');
        $dir = sys_get_temp_dir() . '/rlock-composer-' . getmypid() . '-' . bin2hex(random_bytes(3));
        mkdir($dir);
        try {
            file_put_contents("$dir/composer.json", json_encode([
                'repositories' => [['type' => 'path', 'url' => realpath(self::REPO . '/bridge'), 'options' => ['symlink' => false]],
                    ['packagist.org' => false]],
                'require' => ['rlock/bridge' => '*@dev'],
            ], JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES));
            // the extension is not loaded in composer's PHP: a CI without it installs the same way
            exec('cd ' . escapeshellarg($dir) . ' && COMPOSER_HOME=' . escapeshellarg("$dir/.composer")
                . ' COMPOSER_ALLOW_SUPERUSER=1 composer install --no-interaction --no-progress --ignore-platform-req=ext-rlock 2>&1', $out, $rc);
            $this->assertSame(0, $rc, implode("\n", $out));
            foreach (['stubs/rlock.php', 'phpstan/rlock.neon', 'polyfill.php', 'src/Testing/InMemoryLock.php'] as $file) {
                $this->assertFileExists("$dir/vendor/rlock/bridge/$file");
            }
            $this->assertStringContainsString('../stubs/rlock.php', file_get_contents("$dir/vendor/rlock/bridge/phpstan/rlock.neon"));
            // (the frameworks are not in this project: the stores are not loaded)
            $load = 'require ' . var_export("$dir/vendor/autoload.php", true) . '; echo implode(" ", [interface_exists("RLock\LockInterface")
                ? "interfaces" : "none", (new RLock\Bridge\Testing\InMemoryLock("k"))->tryLock() ? "doubles" : "no doubles",
                (new ReflectionClass("RLockException"))->isInternal() ? "of the extension" : "of the polyfill"]);';
            [$rc, $bare] = self::phpWithoutTheExtension($load);
            $this->assertSame([0, 'interfaces doubles of the polyfill'], [$rc, $bare]);
            [$proc, $pipes] = Processes::start($load);
            $this->assertSame([0, 'interfaces doubles of the extension', ''], Processes::finish($proc, $pipes), 'with the extension loaded');
        } finally {
            exec('rm -rf ' . escapeshellarg($dir));
        }
    }
}
