<?php
/* The API fuzz (issue 27, part 3): every function and method of the extension, found by
 * reflection (new ones are covered without a change here), called with type-confused and
 * extreme arguments, on objects in odd states, against the test redis-server and an
 * unreachable port, in coercive and in strict mode, from callbacks that throw or call the
 * same object again, inside Fibers. Checked: no crash, no sanitizer report, no warning or
 * notice, every exception a TypeError, ValueError (ArgumentCountError) or RLockException,
 * and every call back within a generous bound.
 *
 * Seeded: the seed is printed, and --seed=N --calls=M replays a run's first M calls (the same
 * calls, as far as Redis and the watchdog's timing answer them alike).
 *   RLOCK_TEST_HOST=127.0.0.1 RLOCK_TEST_PORT=6379 php -d extension=$PWD/modules/rlock.so \
 *       tests/fuzz/api.php [--seed=N] [--seconds=60] [--calls=M]
 * scripts/test.sh --sanitizers (--asan, --ubsan) runs it against that build after the phpt
 * suite. It uses database 15 of the server, and empties it at the end.
 *
 * This process is a supervisor: the fuzz runs in a child (--worker), whose crash, sanitizer
 * report (its stderr), hang, or end by exit() inside a callback (--exit-case) is seen from
 * here with the calls that led to it. Last lines: "fuzz: seed=N calls=N errors by class ..."
 * and "fuzz: 1 passed, 0 failed" (or "0 passed, 1 failed" after the findings). */

require_once __DIR__ . '/../config.inc';
require_once __DIR__ . '/strict.inc';

const FUZZ_BOUND = 20.0;      // s: a call slower than this is a finding
const FUZZ_HANG = 120.0;      // s without a word from the worker: it hangs
const FUZZ_EXIT_CASES = 10;

/* ---------------------------------------------------------------------------------------
 * The supervisor */

/* The command line of a child: this php, without the machine's php.ini (its extensions are
 * not ours to fuzz), with the rlock this process has loaded. */
function fuzz_child_cmd(array $args): array
{
    $so = null;
    foreach (file('/proc/self/maps') ?: [] as $line) {
        if (preg_match('~\s(/\S*rlock\.so)$~', rtrim($line), $m)) {
            $so = $m[1];
            break;
        }
    }
    if ($so === null) {
        fwrite(STDERR, "fuzz: rlock.so is not loaded\n");
        exit(2);
    }
    // (options without a server: the test server's database 15 too, not a Redis on 6379)
    return array_merge([PHP_BINARY, '-n', '-d', "extension=$so", '-d', 'rlock.server=' . RLOCK_TEST_DSN . '/15', '-d', 'display_errors=stderr',
        '-d', 'memory_limit=2G', '-d', 'log_errors=0', __FILE__], $args);
}

/* Runs a child; returns [exit code or "signal N", stdout lines' tail, stderr, hung]. Each
 * line the worker writes is a sign of life; FUZZ_HANG s without one is a hang. */
function fuzz_run_child(array $args, ?callable $on_line = null): array
{
    // (rlock.so kept loaded to the end: a leak report's stack names its functions)
    $proc = proc_open(fuzz_child_cmd($args), [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes,
        null, getenv() + ['ZEND_DONT_UNLOAD_MODULES' => '1']);
    stream_set_blocking($pipes[1], false);
    stream_set_blocking($pipes[2], false);
    $tail = [];
    $err = '';
    $buf = '';
    $hung = false;
    $last = microtime(true);
    $open = [1 => $pipes[1], 2 => $pipes[2]];
    while ($open) {
        $r = array_values($open);
        $w = $e = null;
        if (@stream_select($r, $w, $e, 1) === false) {
            continue;
        }
        foreach ($open as $i => $p) {
            $chunk = fread($p, 1 << 16);
            if ($chunk === '' || $chunk === false) {
                if (feof($p)) {
                    unset($open[$i]);
                }
                continue;
            }
            $last = microtime(true);
            if ($i === 2) {
                $err .= strlen($err) < (1 << 20) ? $chunk : '';
                continue;
            }
            $buf .= $chunk;
            while (($nl = strpos($buf, "\n")) !== false) {
                $line = substr($buf, 0, $nl);
                $buf = substr($buf, $nl + 1);
                $tail[] = $line;
                if (count($tail) > 12) {
                    array_shift($tail);
                }
                if ($on_line) {
                    $on_line($line);
                }
            }
        }
        if (microtime(true) - $last > FUZZ_HANG && !$hung) {
            $hung = true;
            proc_terminate($proc, 9);
        }
    }
    $status = proc_get_status($proc);
    $code = proc_close($proc);
    if ($status['running'] === false && $status['signaled']) {
        $code = 'signal ' . $status['termsig'];
    } elseif ($status['running'] === false) {
        $code = $status['exitcode'];
    }
    return [$code, $tail, $err, $hung];
}

function fuzz_supervise(int $seed, float $seconds, int $calls): int
{
    echo "fuzz: seed=$seed (replay: --seed=$seed; one call: --calls=M)\n";
    $failed = 0;
    $summary = null;
    $args = ['--worker', "--seed=$seed", "--seconds=$seconds"];
    if ($calls > 0) {
        $args[] = "--calls=$calls";
    }
    [$code, $tail, $err, $hung] = fuzz_run_child($args, function (string $line) use (&$summary, &$failed) {
        if (str_starts_with($line, 'fuzz: seed=')) {
            $summary = $line;
        } elseif (!str_starts_with($line, '@') && !str_starts_with($line, 'stats:')) {
            echo $line, "\n";  // findings, as the worker (or a child it forked) prints them
            if (str_starts_with($line, 'finding: ')) {
                $failed++;
            }
        }
    });
    if ($hung || $code !== 0 || $err !== '') {
        $failed++;
        echo 'finding: the worker ', $hung ? 'hung (no call returned in ' . FUZZ_HANG . ' s)' : "ended with $code", "; its last calls:\n";
        foreach ($tail as $line) {
            echo '    ', substr($line, 0, 300), "\n";
        }
        if ($err !== '') {
            echo "  its stderr:\n", fuzz_indent(substr($err, 0, 12000));
        }
    }
    if ($summary === null) {
        $failed++;
        echo "finding: the worker gave no summary\n";
    }

    // exit() inside callbacks: each case a process of its own, that must end with exit(7)
    for ($case = 0; $case < FUZZ_EXIT_CASES; $case++) {
        [$code, $tail, $err, $hung] = fuzz_run_child(["--exit-case=$case", "--seed=$seed"]);
        if ($hung || $code !== 7 || $err !== '' || $tail) {
            $failed++;
            echo "finding: exit case $case (", fuzz_exit_case_name($case), ') ended with ', $hung ? 'a hang' : $code, "\n";
            echo fuzz_indent(implode("\n", $tail) . "\n" . substr($err, 0, 12000));
        }
    }
    fuzz_flush_db();
    echo $summary ?? "fuzz: seed=$seed calls=?", " exit_cases=", FUZZ_EXIT_CASES, "\n";
    echo $failed ? "fuzz: 0 passed, 1 failed\n" : "fuzz: 1 passed, 0 failed\n";
    return $failed ? 1 : 0;
}

function fuzz_indent(string $s): string
{
    return preg_replace('/^/m', '    ', rtrim($s)) . "\n";
}

/* One command to database 15 of the test server, on a connection of this process' own (a
 * forked child opens its own): its reply's first line. A connection a fault killed (CLIENT
 * KILL from a forked child) is opened again. */
function fuzz_redis(string ...$args): string
{
    static $s = null, $pid = 0;
    $out = '*' . count($args) . "\r\n";
    foreach ($args as $a) {
        $out .= '$' . strlen($a) . "\r\n" . $a . "\r\n";
    }
    for ($try = 0; $try < 3; $try++) {
        if ($s === null || $pid !== getmypid()) {
            $pid = getmypid();
            $s = @stream_socket_client('tcp://' . RLOCK_TEST_HOST . ':' . RLOCK_TEST_PORT, $errno, $errstr, 2) ?: null;
            if ($s === null || @fwrite($s, "*2\r\n\$6\r\nSELECT\r\n\$2\r\n15\r\n") === false || @fgets($s) !== "+OK\r\n") {
                $s = null;
                continue;
            }
        }
        if (@fwrite($s, $out) !== false && ($line = @fgets($s)) !== false) {
            return rtrim($line);
        }
        $s = null;
    }
    throw new RuntimeException('the test server did not answer ' . $args[0]);
}

/* The fuzz's keys live in database 15 of the test server: emptied at the end. */
function fuzz_flush_db(): void
{
    fuzz_redis('FLUSHDB');
}

/* ---------------------------------------------------------------------------------------
 * Values */

final class FuzzThrow extends Exception
{
}

final class FuzzThrowingString
{
    public function __toString(): string
    {
        throw new FuzzThrow('__toString throws');
    }
}

final class FuzzString implements Stringable
{
    public function __construct(private string $s)
    {
    }

    public function __toString(): string
    {
        return $this->s;
    }
}

final class FuzzExitString
{
    public function __toString(): string
    {
        exit(7);
    }
}

enum FuzzEnum: string
{
    case A = 'k1';
}

final class Fuzz
{
    public static Random\Randomizer $r;
    public static string $dsn;          // the test server, database 15
    public static string $dsn14;        // the same, database 14 (a second "server" for Redlock)
    public static string $down;         // a port nobody listens on
    public static string $prefix;
    public static array $pool = [];     // receivers: objects of the extension's classes
    public static array $tokens = [];
    public static array $targets = [];  // [class or null, ReflectionMethod|ReflectionFunction]
    public static array $ini = [];
    public static int $calls = 0;
    public static array $returned = [];  // what each method returned, how often (FUZZ_STATS=1)
    public static int $depth = 0;
    public static array $errors = [];   // class => count
    public static array $findings = [];
    public static float $slowest = 0.0;
    public static string $slowestDesc = '';

    public static function int(int $lo, int $hi): int
    {
        return self::$r->getInt($lo, $hi);
    }

    public static function chance(float $p): bool
    {
        return self::$r->getInt(0, 999999) < $p * 1000000;
    }

    public static function pick(array $a): mixed
    {
        return $a[array_rand_seeded($a)];
    }
}

function array_rand_seeded(array $a): int|string
{
    $keys = array_keys($a);
    return $keys[Fuzz::int(0, count($keys) - 1)];
}

/* A value of any type, most of them wrong for any parameter or option. */
function fuzz_wild(): mixed
{
    switch (Fuzz::int(0, 47)) {
        case 0: return null;
        case 1: return '';
        case 2: return "\0";
        case 3: return "k1\0tail";
        case 4: return str_repeat('x', 1 << 20);
        case 5: return str_repeat("\0", 1 << 20);
        case 6: return "\xff\xfe\x80";
        case 7: return Fuzz::pick(['{', '}', '{}', '}{', '{k1}', '*', '?', '[', ' ', '%s%n', ':', 'rlock:', '-1', '0x10', '1e400', '9223372036854775808', '1.5', ' 12', '12abc']);
        case 8: return INF;
        case 9: return -INF;
        case 10: return NAN;
        case 11: return -0.0;
        case 12: return Fuzz::pick([0.5, 1e20, -1e20, 99.9, 2147483647.0, 2147483648.0, 9.2233720368547758E18]);
        case 13: return 0;
        case 14: return -1;
        case 15: return 1;
        case 16: return PHP_INT_MAX;
        case 17: return PHP_INT_MIN;
        case 18: return 2147483647;
        case 19: return 2147483648;
        case 20: return Fuzz::pick([-2147483648, 4294967296, 99, 100, 101, 1000000, 2]);
        case 21: return true;
        case 22: return false;
        case 23: return [];
        case 24: return [null];
        case 25: return fuzz_nested(Fuzz::int(2, 200));
        case 26: return ['a' => 1, 'b' => [2], 3 => 'c'];
        case 27: return range(1, Fuzz::pick([3, 1000, 70000]));
        case 28: $a = [1]; $a[] = &$a; return $a;
        case 29: return new stdClass();
        case 30: return new FuzzThrowingString();
        case 31: return new FuzzString(Fuzz::pick(['k1', 'k2', '', "\0", Fuzz::$dsn, '100']));
        case 32: return fuzz_callback(null);
        case 33: return fuzz_receiver(null) ?? new stdClass();
        case 34: return (function () { yield 1; })();
        case 35: return fopen('php://memory', 'r');
        case 36: return FuzzEnum::A;
        case 37: return 'strlen';
        case 38: return ['RLock', 'releaseAll'];
        case 39: return 'nosuchfunction';
        case 40: return Fuzz::$tokens ? Fuzz::pick(Fuzz::$tokens) : 'token';
        case 41: return fuzz_key();
        case 42: return Fuzz::pick([Fuzz::$dsn, Fuzz::$down, 'redis://', 'redis://:@/', 'tcp://127.0.0.1:0', 'unix:///nonexistent.sock',
            'redis://127.0.0.1:99999', 'redis://127.0.0.1:' . RLOCK_TEST_PORT . '/99999', 'redis://127.0.0.1:' . RLOCK_TEST_PORT . '/-1',
            'rediss://127.0.0.1:' . RLOCK_TEST_PORT . '/15', 'redis://u:p@127.0.0.1:' . RLOCK_TEST_PORT . '/15', 'redis://[::1', 'http://x',
            'redis://us%65r:p%4@127.0.0.1:' . RLOCK_TEST_PORT . '/15', 'redis://:%00%zz%@127.0.0.1:' . RLOCK_TEST_PORT, 'redis://%:@:/', 'redis://@127.0.0.1']);
        case 43: return [Fuzz::$dsn, Fuzz::$dsn14, Fuzz::$down];
        case 44: return ['127.0.0.1:' . RLOCK_TEST_PORT, Fuzz::pick(['', "\0", '127.0.0.1:0', 'x:y:z', Fuzz::$down])];
        case 45: return Fuzz::chance(0.5) ? array_fill(0, Fuzz::pick([2, 64, 5000]), fuzz_key())
            : array_map(fn ($i) => "many$i", range(1, Fuzz::pick([100, 9000])));
        case 46: return new RLockException('fuzz');
        default: return 'ordinary';
    }
}

function fuzz_nested(int $depth): array
{
    $a = [];
    for ($i = 0; $i < $depth; $i++) {
        $a = [$a, 'k' => $i];
    }
    return $a;
}

function fuzz_key(): string
{
    return Fuzz::chance(0.9) ? 'k' . Fuzz::int(0, 5) : Fuzz::pick(['{tag}a', '{tag}b', 'a:b', '{', '}{k1}', 'a}b', 'rlock:k1', '', "\0", 'x' . Fuzz::int(0, 1000)]);
}

/* A valid wait is at most 1000 ms here: a wait of days is valid, and would be waited out
 * when the lock is held (by the fuzz's own objects: with "reentrant" off, each is another
 * owner); its range's edges (2147483648 and past) are still given. */
function fuzz_tame(mixed $v): mixed
{
    if ((is_int($v) || is_float($v) || is_bool($v) || (is_string($v) && is_numeric($v)))) {
        $f = (float) $v;
        if ($f > 1000 && $f <= 2147483647.0) {
            return 2147483648;
        }
    }
    return $v;
}

const FUZZ_OPTIONS = ['server', 'servers', 'cluster', 'sentinel', 'service', 'ttl', 'wait', 'retry_delay', 'prefix',
    'connect_timeout', 'read_timeout', 'persistent', 'reentrant', 'auto_release', 'fencing', 'fair', 'watchdog',
    'sync_replicas', 'tls_ca', 'tls_cert', 'tls_key', 'tls_verify_peer', 'tls_server_name', 'burst'];

/* Options: mostly sound ones (the test server or the unreachable port), then a few set to
 * wild values, unknown names, or another topology. */
function fuzz_options(): array
{
    $o = [];
    $where = Fuzz::int(0, 9);
    if ($where < 7) {
        $o['server'] = Fuzz::$dsn;
    } elseif ($where < 9) {
        $o['server'] = Fuzz::$down;
    } else {
        $o['servers'] = [Fuzz::$dsn, Fuzz::$dsn14, Fuzz::$down];
    }
    $o['prefix'] = Fuzz::$prefix;
    $o['connect_timeout'] = 300;
    $o['read_timeout'] = 2000;
    $o['retry_delay'] = Fuzz::int(1, 50);
    $o['wait'] = Fuzz::int(0, 200);
    $o['ttl'] = Fuzz::int(300, 5000);
    foreach (['watchdog', 'fencing', 'reentrant', 'fair', 'persistent'] as $b) {
        if (Fuzz::chance(0.3)) {
            $o[$b] = Fuzz::chance(0.5);
        }
    }
    if (Fuzz::chance(0.1)) {
        $o['auto_release'] = false;
    }
    for ($i = Fuzz::pick([0, 0, 1, 1, 2, 3]); $i > 0; $i--) {
        $name = Fuzz::chance(0.9) ? Fuzz::pick(FUZZ_OPTIONS) : Fuzz::pick(['bogus', '', "\0", 0, 'TTL', 'ttl ', "ttl\0"]);
        if (Fuzz::chance(0.1)) {
            unset($o[$name]);
        } else {
            $o[$name] = in_array($name, ['wait', 'retry_delay'], true) ? fuzz_tame(fuzz_wild()) : fuzz_wild();
        }
    }
    if (Fuzz::chance(0.03)) {
        unset($o['server']);
        $o[Fuzz::pick(['cluster', 'sentinel'])] = ['127.0.0.1:' . RLOCK_TEST_PORT];
        $o['service'] = 'mymaster';
    }
    return $o;
}

/* A callback: returns, throws, calls the object it is given again (re-enters), or calls
 * anything else. */
function fuzz_callback(?object $self): Closure
{
    switch (Fuzz::int(0, 9)) {
        case 6:
            // replaces itself (the closure running freed) or removes itself, then goes on
            return function ($x = null) use ($self) {
                $target = is_object($x) ? $x : $self;
                if (is_object($target) && method_exists($target, 'onLost')) {
                    fuzz_call($target, 'onLost', [Fuzz::chance(0.5) ? null : fuzz_callback($target)]);
                }
                fuzz_step($target);
                return 'replaced';
            };
        case 7:
            // the object given up while its call runs: the pool's references dropped, cycles
            // (an object and its callback's closure) collected
            return function ($x = null) use ($self) {
                $target = is_object($x) ? $x : $self;
                Fuzz::$pool = array_values(array_filter(Fuzz::$pool, fn ($o) => $o !== $target));
                $target = $x = null;
                gc_collect_cycles();
                fuzz_step(null);
                return 'dropped';
            };
        case 8:
            // everything the context holds let go, from inside
            return function ($x = null) {
                fuzz_call('RLock', 'releaseAll', []);
                return 'released all';
            };
        case 9:
            // the same object's synchronized() again, inside its own
            return function ($x = null) use ($self) {
                $target = is_object($x) ? $x : $self;
                if (is_object($target) && method_exists($target, 'synchronized')) {
                    fuzz_call($target, 'synchronized', [fuzz_callback($target)]);
                }
                return 'nested';
            };
        case 0: return fn ($x = null) => 42;
        case 1: return function ($x = null) { throw new FuzzThrow('callback throws'); };
        case 2:
        case 3:
            return function ($x = null) use ($self) {
                $target = is_object($x) ? $x : $self;
                for ($i = Fuzz::int(1, 3); $i > 0; $i--) {
                    fuzz_step($target);
                }
                if (Fuzz::chance(0.3)) {
                    throw new FuzzThrow('callback throws after re-entering');
                }
                return 'reentered';
            };
        case 4: return function ($x = null) {
            fuzz_step(null);
            return null;
        };
        default: return fn (...$a) => $a;
    }
}

/* ---------------------------------------------------------------------------------------
 * The worker */

function fuzz_worker(int $seed, float $seconds, int $calls): int
{
    Fuzz::$r = new Random\Randomizer(new Random\Engine\Mt19937($seed));
    Fuzz::$dsn = RLOCK_TEST_DSN . '/15';
    Fuzz::$dsn14 = RLOCK_TEST_DSN . '/14';
    $s = stream_socket_server('tcp://127.0.0.1:0');
    Fuzz::$down = 'redis://127.0.0.1:' . explode(':', stream_socket_get_name($s, false))[1];
    fclose($s);
    Fuzz::$prefix = "fuzz:$seed:";
    // PHP's shutdown collects no cycles: one the last frames leave (a caught exception whose
    // trace holds an object whose callback holds it) reads as a leak without Zend's allocator
    register_shutdown_function(function () {
        Fuzz::$pool = [];
        gc_collect_cycles();
    });

    $ext = new ReflectionExtension('rlock');
    foreach ($ext->getFunctions() as $f) {
        Fuzz::$targets[] = [null, $f];
    }
    foreach ($ext->getClasses() as $c) {
        if ($c->isInterface()) {
            continue;  // their methods are the classes'
        }
        foreach ($c->getMethods() as $m) {
            if ($m->getDeclaringClass()->getExtensionName() === 'rlock') {
                Fuzz::$targets[] = [$c->getName(), $m];
            }
        }
    }
    Fuzz::$ini = array_keys($ext->getINIEntries());

    set_error_handler(function (int $no, string $msg, string $file, int $line) {
        if (!(error_reporting() & $no)) {
            return true;  // the fuzz's own @ (its connection to the test server)
        }
        $name = [E_WARNING => 'E_WARNING', E_NOTICE => 'E_NOTICE', E_DEPRECATED => 'E_DEPRECATED', E_USER_ERROR => 'E_USER_ERROR',
            E_USER_WARNING => 'E_USER_WARNING', E_USER_NOTICE => 'E_USER_NOTICE', E_USER_DEPRECATED => 'E_USER_DEPRECATED'][$no] ?? "E$no";
        Fuzz::$errors[$name] = (Fuzz::$errors[$name] ?? 0) + 1;
        $GLOBALS['fuzz_raised'][] = [$no, $msg];
        return true;
    });

    $deadline = microtime(true) + $seconds;
    while ($calls > 0 ? Fuzz::$calls < $calls : microtime(true) < $deadline) {
        try {
            fuzz_step(null);
        } catch (Throwable $e) {
            // an onLost callback's, surfacing between calls; a call the fuzz makes itself (a
            // receiver's key() or token(), a side taken)
            Fuzz::$errors[get_class($e)] = (Fuzz::$errors[get_class($e)] ?? 0) + 1;
            if (!fuzz_allowed($e)) {
                fuzz_finding(get_class($e) . ': ' . $e->getMessage() . ' (between calls)', '', Fuzz::$calls, $e);
            }
        }
    }
    // the objects go, holding or not, with their callbacks (each destructor's release)
    Fuzz::$pool = [];
    Fuzz::$tokens = [];
    gc_collect_cycles();
    ksort(Fuzz::$errors);
    $by = [];
    foreach (Fuzz::$errors as $class => $n) {
        $by[] = "$class=$n";
    }
    if (getenv('FUZZ_STATS')) {
        ksort(Fuzz::$returned);
        foreach (Fuzz::$returned as $k => $r) {
            arsort($r);
            echo "stats: $k ", json_encode(array_slice($r, 0, 5)), "\n";
        }
    }
    printf("fuzz: seed=%d calls=%d findings=%d slowest=%.2fs (%s) errors by class: %s\n", $seed, Fuzz::$calls,
        count(Fuzz::$findings), Fuzz::$slowest, substr(Fuzz::$slowestDesc, 0, 60), implode(' ', $by));
    return 0;
}

/* One step: a call of a random target, or an odd state made, or a fault. */
function fuzz_step(?object $self): void
{
    if (Fuzz::$depth > 2) {
        return;
    }
    Fuzz::$depth++;
    try {
        $what = Fuzz::int(0, 99);
        if ($self !== null && $what < 70) {
            fuzz_call_method_of($self);
        } elseif ($what < 84) {
            fuzz_call_target(Fuzz::pick(Fuzz::$targets));
        } elseif ($what < 90) {
            fuzz_odd_state();
        } elseif ($what < 94) {
            fuzz_in_fiber();
        } elseif ($what < 96) {
            fuzz_ini();
        } elseif ($what < 97) {
            fuzz_fault();
            gc_collect_cycles();
        } else {
            fuzz_new(Fuzz::pick(['RLock', 'RSemaphore', 'RReadWriteLock', 'RRateLimiter', 'multi']));
        }
    } finally {
        Fuzz::$depth--;
    }
}

/* A receiver of $class from the pool, made when there is none (null when it cannot be). */
function fuzz_receiver(?string $class): ?object
{
    $have = [];
    foreach (Fuzz::$pool as $i => $o) {
        if ($class === null || $o instanceof $class) {
            $have[] = $o;
        }
    }
    if ($have && Fuzz::chance(0.9)) {
        return Fuzz::pick($have);
    }
    if ($class === null) {
        return null;
    }
    return fuzz_new($class);
}

function fuzz_pool_add(mixed $o): void
{
    if (!is_object($o) || $o instanceof Closure || $o instanceof FuzzThrow) {
        return;
    }
    Fuzz::$pool[] = $o;
    if (count(Fuzz::$pool) > 24) {
        array_splice(Fuzz::$pool, Fuzz::int(0, 23), 1);  // dropped, held or not
    }
}

/* A sound object of $class (or from RLock::multi(), a read-write lock's side, an
 * exception); its constructor may still refuse the options. */
function fuzz_new(string $class): ?object
{
    $o = fuzz_options();
    if (Fuzz::chance(0.7)) {
        // mostly valid options here: a receiver that works
        $o = ['server' => Fuzz::chance(0.85) ? Fuzz::$dsn : Fuzz::$down] + array_intersect_key($o, ['watchdog' => 1, 'fencing' => 1, 'reentrant' => 1, 'fair' => 1, 'persistent' => 1, 'auto_release' => 1, 'ttl' => 1, 'wait' => 1, 'prefix' => 1, 'connect_timeout' => 1, 'read_timeout' => 1, 'retry_delay' => 1]);
    }
    $made = fuzz_call($class === 'multi' ? 'RLock' : $class, $class === 'multi' ? 'multi' : '__construct', match ($class) {
        'RLock', 'RReadWriteLock' => [fuzz_key(), $o],
        'RSemaphore' => [fuzz_key(), Fuzz::int(1, 4), array_diff_key($o, ['fencing' => 1, 'servers' => 1])],
        'RRateLimiter' => [fuzz_key(), Fuzz::int(1, 10), Fuzz::int(100, 3000), array_diff_key($o, ['fencing' => 1, 'servers' => 1, 'watchdog' => 1, 'reentrant' => 1, 'ttl' => 1])],
        'multi' => [array_map(fn () => fuzz_key(), range(1, Fuzz::int(1, 4))), $o],
        'RLockLostException' => ['lost', 0],
        default => [],
    });
    if ($class === 'RReadWriteLock' && is_object($made) && Fuzz::chance(0.5)) {
        fuzz_pool_add($made->readLock());
        fuzz_pool_add($made->writeLock());
    }
    return is_object($made) ? $made : null;
}

/* The arguments for $m: each parameter given a sound value or a wild one; sometimes one
 * fewer, or one more. */
function fuzz_args(ReflectionFunctionAbstract $m, ?object $self): array
{
    $args = [];
    $params = $m->getParameters();
    $n = count($params);
    if (Fuzz::chance(0.3)) {
        $n = Fuzz::int($m->getNumberOfRequiredParameters(), $n);
    }
    if (Fuzz::chance(0.03)) {
        $n = max(0, $n - 1);
    } elseif (Fuzz::chance(0.03)) {
        $n++;
    }
    // RLock::release() of a hold the pool has: its key() and token(), or another's
    if ($m->getName() === 'release' && $m->isStatic() && Fuzz::chance(0.5)) {
        $l = fuzz_receiver('RLock');
        $other = fuzz_receiver('RLock');
        if ($l !== null && $other !== null) {
            return [Fuzz::chance(0.5) ? $l->key() : $other->key(), $l->token() ?? fuzz_wild(), fuzz_options()];
        }
    }
    for ($i = 0; $i < $n; $i++) {
        $p = $params[$i] ?? null;
        $args[] = $p === null || Fuzz::chance(0.35) ? fuzz_wild() : fuzz_sound($p, $m, $self);
        if ($p !== null && in_array($p->getName(), ['waitMs', 'periodMs'], true)) {
            $args[$i] = fuzz_tame($args[$i]);
        }
    }
    return $args;
}

function fuzz_sound(ReflectionParameter $p, ReflectionFunctionAbstract $m, ?object $self): mixed
{
    return match ($p->getName()) {
        'key', 'name' => fuzz_key(),
        'token' => Fuzz::$tokens && Fuzz::chance(0.8) ? Fuzz::pick(Fuzz::$tokens) : bin2hex(Fuzz::$r->getBytes(Fuzz::int(1, 20))),
        'options' => fuzz_options(),
        'waitMs' => Fuzz::chance(0.3) ? null : Fuzz::int(0, 300),
        'ttlMs' => Fuzz::chance(0.3) ? null : Fuzz::int(100, 5000),
        'permits' => Fuzz::int($m->getName() === '__construct' ? 1 : 0, 4),
        'n' => Fuzz::int(1, 3),
        'limit' => Fuzz::int(1, 10),
        'periodMs' => Fuzz::int(100, 2000),
        'fn' => fuzz_callback($self),
        'keys' => $m->getName() === 'rlock_status' ? Fuzz::chance(0.5)
            : array_map(fn () => Fuzz::chance(0.1) ? fuzz_wild() : fuzz_key(), range(1, Fuzz::pick([1, 2, 3, 4, 5, 10, 11]))),
        'limiters' => array_map(fn () => Fuzz::chance(0.95) ? fuzz_receiver('RRateLimiter') ?? fuzz_wild() : fuzz_wild(), range(1, Fuzz::pick([1, 2, 3, 4, 40]))),
        'message' => 'm',
        'code' => 0,
        default => fuzz_wild(),
    };
}

function fuzz_call_target(array $t): void
{
    [$class, $m] = $t;
    if ($class === null) {
        fuzz_call(null, $m->getName(), fuzz_args($m, null));
    } elseif ($m->isStatic()) {
        fuzz_call($class, $m->getName(), fuzz_args($m, null));
    } elseif ($m->getName() === '__construct' && Fuzz::chance(0.7)) {
        fuzz_call($class, '__construct', fuzz_args($m, null));  // new $class(...)
    } else {
        $o = fuzz_receiver($class);
        if ($o !== null) {
            fuzz_call($o, $m->getName(), fuzz_args($m, $o));  // a second __construct too
        }
    }
}

function fuzz_call_method_of(object $o): void
{
    $ms = [];
    foreach (Fuzz::$targets as [$class, $m]) {
        if ($class !== null && $o instanceof $class) {
            $ms[] = $m;
        }
    }
    if ($ms) {
        $m = Fuzz::pick($ms);
        fuzz_call($m->isStatic() ? get_class($o) : $o, $m->getName(), fuzz_args($m, $o));
    }
}

/* One call, checked. $target: an object, a class (static method; '__construct': new), or
 * null (a function). Returns what the call returned, null when it threw. */
function fuzz_call(object|string|null $target, string $name, array $args, bool $allow_core = false): mixed
{
    $n = ++Fuzz::$calls;
    $strict = Fuzz::chance(0.3);
    $desc = (is_object($target) ? get_class($target) . '->' : (is_string($target) ? "$target::" : ''))
        . $name . '(' . implode(', ', array_map('fuzz_desc', $args)) . ')' . ($strict ? ' strict' : '');
    if (Fuzz::$depth <= 1) {
        echo "@ $n $desc\n";
    }
    $GLOBALS['fuzz_raised'] = [];
    $result = null;
    $t0 = microtime(true);
    try {
        if ($strict) {
            $result = fuzz_invoke_strict($target, $name, $args);
        } elseif (is_object($target)) {
            $result = $target->$name(...$args);
        } elseif ($target !== null) {
            $result = $name === '__construct' ? new $target(...$args) : $target::$name(...$args);
        } else {
            $result = $name(...$args);
        }
        $k = preg_replace('/^.*?(->|::)/', '', $name) . (is_object($target) ? '@' . get_class($target) : '');
        Fuzz::$returned[$k][fuzz_desc(is_object($result) ? true : $result)] = (Fuzz::$returned[$k][fuzz_desc(is_object($result) ? true : $result)] ?? 0) + 1;
        if (is_object($result) && $result !== $target) {
            fuzz_pool_add($result);
        } elseif (is_string($result) && $name === 'token') {
            Fuzz::$tokens[] = $result;
            if (count(Fuzz::$tokens) > 32) {
                array_shift(Fuzz::$tokens);
            }
        }
    } catch (Throwable $e) {
        $class = get_class($e);
        Fuzz::$errors[$class] = (Fuzz::$errors[$class] ?? 0) + 1;
        if ($e instanceof RLockLostException) {
            fuzz_pool_add($e);
        }
        if (!fuzz_allowed($e) && !($allow_core && fuzz_core_refusal($e))) {
            fuzz_finding("$class: " . $e->getMessage(), $desc, $n, $e);
        }
    }
    $took = microtime(true) - $t0;
    if ($took > Fuzz::$slowest) {
        Fuzz::$slowest = $took;
        Fuzz::$slowestDesc = $desc;
    }
    if ($took > FUZZ_BOUND) {
        fuzz_finding(sprintf('took %.1f s', $took), $desc, $n);
    }
    foreach ($GLOBALS['fuzz_raised'] as [$no, $msg]) {
        if (!fuzz_php_own($no, $msg, $args)) {
            fuzz_finding("E$no: $msg", $desc, $n);
        }
    }
    $GLOBALS['fuzz_raised'] = [];
    return $result;
}

/* The exceptions rlock may throw, and the fuzz's own (a callback's, a __toString()'s). */
function fuzz_allowed(Throwable $e): bool
{
    return $e instanceof TypeError || $e instanceof ValueError || $e instanceof RLockException || $e instanceof FuzzThrow;
}

/* What PHP itself raises for an argument of an internal function, not rlock: null given
 * for a non-nullable scalar parameter in coercive mode (deprecated since 8.1), a float (or
 * float string) with a fraction given for an int. */
function fuzz_php_own(int $no, string $msg, array $args): bool
{
    if ($no !== E_DEPRECATED) {
        return false;
    }
    if (preg_match('/^\S+\(\): Passing null to parameter #(\d+) \(\$\w+\) of type \w+ is deprecated$/', $msg, $m)) {
        return array_key_exists($m[1] - 1, $args) && $args[$m[1] - 1] === null;
    }
    return (bool) preg_match('/^Implicit conversion from float(-string)? .* to int loses precision$/', $msg);
}

/* The refusals PHP makes for a class that is neither cloneable nor serializable. */
function fuzz_core_refusal(Throwable $e): bool
{
    return get_class($e) === 'Error' && preg_match('/^Trying to clone an uncloneable object of class \w+$/', $e->getMessage())
        || get_class($e) === 'Exception' && preg_match("/^(Uns|S)erialization of '\w+' is not allowed$/", $e->getMessage())
        || $e instanceof ReflectionException && str_contains($e->getMessage(), 'cannot be instantiated without invoking its constructor');
}

function fuzz_finding(string $what, string $desc, int $n, ?Throwable $e = null): void
{
    $key = preg_replace('/\d+/', 'N', $what . ' @ ' . preg_replace('/\(.*$/s', '', $desc));
    if (isset(Fuzz::$findings[$key])) {
        return;
    }
    Fuzz::$findings[$key] = true;
    echo "finding: $what\n    call $n: ", substr($desc, 0, 400), "\n";
    if ($e !== null) {
        echo '    at ', $e->getFile(), ':', $e->getLine(), "\n";
    }
}

function fuzz_desc(mixed $v): string
{
    if (is_string($v)) {
        $s = strlen($v) > 40 ? substr($v, 0, 16) . '...(' . strlen($v) . ' bytes)' : $v;
        return '"' . addcslashes($s, "\0..\37\"\\\177..\377") . '"';
    }
    if (is_array($v)) {
        return '[' . count($v) . ': ' . implode(', ', array_map(fn ($x) => is_array($x) ? '[...]' : fuzz_desc($x), array_slice($v, 0, 3, true))) . (count($v) > 3 ? ', ...' : '') . ']';
    }
    if (is_object($v)) {
        return $v instanceof Closure ? 'Closure' : get_class($v);
    }
    if (is_resource($v)) {
        return 'resource';
    }
    if (is_float($v)) {
        return is_nan($v) ? 'NAN' : (is_infinite($v) ? ($v > 0 ? 'INF' : '-INF') : var_export($v, true));
    }
    return var_export($v, true);
}

/* Objects in odd states: cloned (refused), serialized (refused), dumped, made without their
 * constructor (refused for a final class), given up, or their holds taken away. */
function fuzz_odd_state(): void
{
    $o = fuzz_receiver(null);
    switch (Fuzz::int(0, 9)) {
        case 0:
            if ($o !== null) {
                fuzz_call(null, 'fuzz_clone', [$o], true);
            }
            break;
        case 1:
            if ($o !== null) {
                fuzz_call(null, 'serialize', [$o], true);
            }
            break;
        case 2:
            $class = Fuzz::pick(['RLock', 'RSemaphore', 'RReadWriteLock', 'RRateLimiter', 'RLockLostException']);
            // (an exception's: no property it lacks, which PHP itself would warn of)
            $props = $class === 'RLockLostException' ? Fuzz::pick(['0:{}', "1:{s:26:\"\0RLockLostException\0result\";s:1:\"r\";}"]) : Fuzz::pick(['0:{}', '1:{s:3:"key";s:2:"k1";}']);
            fuzz_call(null, 'unserialize', [sprintf('O:%d:"%s":%s', strlen($class), $class, $props)], true);
            break;
        case 3:
            if ($o !== null) {
                fuzz_call(null, Fuzz::pick(['var_export', 'print_r', 'json_encode', 'get_object_vars', 'fuzz_dump', 'fuzz_array_cast']), [$o, true], true);
            }
            break;
        case 4:
            // made without its constructor: refused for the final classes; the exceptions are not final
            $classes = array_filter((new ReflectionExtension('rlock'))->getClasses(), fn ($c) => !$c->isInterface());
            $class = Fuzz::pick(array_values(array_map(fn ($c) => $c->getName(), $classes)));
            $made = fuzz_call(null, 'fuzz_without_constructor', [$class], true);
            fuzz_pool_add($made);
            break;
        case 5:
            if (Fuzz::$pool) {
                array_splice(Fuzz::$pool, Fuzz::int(0, count(Fuzz::$pool) - 1), 1);  // its destructor runs
            }
            break;
        case 6:
            // a hold lost under the watchdog: its onLost callback (that throws, or calls the
            // object again) runs at an opcode of whatever runs then
            if (!Fuzz::chance(0.3)) {
                break;  // (it takes its time)
            }
            $class = Fuzz::pick(['RLock', 'RSemaphore', 'RReadWriteLock', 'multi']);
            $opts = ['server' => Fuzz::$dsn, 'prefix' => Fuzz::$prefix, 'watchdog' => true, 'ttl' => 300, 'connect_timeout' => 300, 'read_timeout' => 2000];
            $l = match ($class) {
                'RLock' => fuzz_call('RLock', '__construct', [fuzz_key(), $opts]),
                'RSemaphore' => fuzz_call('RSemaphore', '__construct', [fuzz_key(), 2, $opts]),
                'RReadWriteLock' => fuzz_call('RReadWriteLock', '__construct', [fuzz_key(), $opts]),
                'multi' => fuzz_call('RLock', 'multi', [[fuzz_key(), fuzz_key()], $opts]),
            };
            if ($l === null) {
                break;
            }
            fuzz_call($l, 'onLost', [fuzz_callback($l)]);
            if ($l instanceof RReadWriteLock) {
                $l = Fuzz::chance(0.5) ? $l->readLock() : $l->writeLock();
            }
            fuzz_call($l, $l instanceof RSemaphore ? 'acquire' : 'lock', []);
            fuzz_call(null, 'fuzz_del_keys', []);
            for ($until = microtime(true) + 0.8; microtime(true) < $until && !($l instanceof RLock && $l->lost());) {
                usleep(10000);
                if (Fuzz::chance(0.2)) {
                    fuzz_step($l);
                }
            }
            break;
        case 7:
            if ($o !== null) {
                fuzz_call(null, 'fuzz_properties', [$o], true);
            }
            break;
        case 8:
            if (Fuzz::chance(0.2)) {
                fuzz_fork();
            }
            break;
        default:
            // a lock with a callback that re-enters, held, then released by everything at once
            $l = fuzz_new(Fuzz::pick(['RLock', 'RSemaphore']));
            if ($l !== null) {
                fuzz_call($l, 'onLost', [fuzz_callback($l)]);
                fuzz_call($l, $l instanceof RLock ? 'tryLock' : 'tryAcquire', []);
                fuzz_call('RLock', 'releaseAll', []);
                fuzz_call($l, $l instanceof RLock ? 'unlock' : 'release', []);
            }
    }
}

/* A forked child calls the objects it inherited (holds of its parent's, a watchdog thread
 * that is not in it), then exits: a crash, a sanitizer report or a finding of its own is the
 * parent's finding. */
function fuzz_fork(): void
{
    $n = Fuzz::$calls;
    $pid = pcntl_fork();
    if ($pid === 0) {
        // exit() below leaves cycles (an object and its callback's closure) that only a
        // collection frees: PHP's shutdown does not collect, and without Zend's allocator
        // (the sanitizer build) what it leaves is a leak report, not rlock's
        register_shutdown_function(function () {
            Fuzz::$pool = [];
            gc_collect_cycles();
        });
        Fuzz::$r = new Random\Randomizer(new Random\Engine\Mt19937($n));
        Fuzz::$findings = [];
        for ($i = 0; $i < 20; $i++) {
            try {
                fuzz_step(Fuzz::$pool ? Fuzz::pick(Fuzz::$pool) : null);
            } catch (Throwable $e) {
                if (!fuzz_allowed($e)) {
                    fuzz_finding(get_class($e) . ': ' . $e->getMessage() . ' (in a forked child)', '', Fuzz::$calls, $e);
                }
            }
        }
        Fuzz::$pool = [];
        exit(Fuzz::$findings ? 1 : 0);
    }
    if ($pid < 0) {
        return;
    }
    // (an onLost callback's exception may surface here too: the child is waited for still)
    do {
        try {
            $got = pcntl_waitpid($pid, $status);
        } catch (FuzzThrow) {
            $got = 0;
        }
    } while ($got === 0);
    if ($got !== $pid) {
        return;
    }
    $code = rlock_test_exit($status);
    if ($code !== 0) {
        fuzz_finding("a forked child ended with $code", "fork after call $n", $n);
    }
}

function fuzz_clone(object $o): object
{
    return clone $o;
}

function fuzz_dump(object $o): string
{
    ob_start();
    var_dump($o);
    debug_zval_dump($o);
    return ob_get_clean();
}

function fuzz_array_cast(object $o): array
{
    return (array) $o;
}

function fuzz_without_constructor(string $class): object
{
    return (new ReflectionClass($class))->newInstanceWithoutConstructor();
}

/* Every declared property read and written by reflection: the classes have none but the
 * exception's $result. */
function fuzz_properties(object $o): void
{
    foreach ((new ReflectionObject($o))->getProperties() as $p) {
        $p->setAccessible(true);
        if ($p->isInitialized($o)) {
            $p->getValue($o);
        }
    }
}

/* Every key of the fuzz's database gone: each hold lost, its owner's next call finds it. */
function fuzz_del_keys(): void
{
    fuzz_redis('FLUSHDB');
}

/* A call, or a hold, inside a Fiber, suspended: then resumed, or the Fiber given up while
 * suspended (its holds are released as a Fiber that ends holding has them released). */
function fuzz_in_fiber(): void
{
    $l = fuzz_receiver(Fuzz::pick(['RLock', 'RSemaphore', 'RRateLimiter']));
    $f = new Fiber(function () use ($l) {
        fuzz_step($l);
        if ($l instanceof RLock) {
            fuzz_call($l, 'tryLock', []);
        }
        Fiber::suspend();
        fuzz_step($l);
    });
    try {
        $f->start();
        if (!$f->isTerminated() && Fuzz::chance(0.5)) {
            $f->resume();
        }
    } catch (FuzzThrow) {
    } catch (FiberError $e) {
        // inside an onLost callback no Fiber may start or switch (README: "cannot suspend
        // there"): PHP's own refusal, zend_fiber_switch_block()
        if ($e->getMessage() !== 'Cannot switch fibers in current execution context') {
            throw $e;
        }
        Fuzz::$errors['FiberError'] = (Fuzz::$errors['FiberError'] ?? 0) + 1;
    }
    unset($f);
}

/* An rlock.* setting set to a wild value, used by a new object, and restored. */
function fuzz_ini(): void
{
    if (!Fuzz::$ini) {
        return;
    }
    $name = Fuzz::pick(Fuzz::$ini);
    $v = fuzz_wild();
    $v = is_scalar($v) || $v === null ? (string) fuzz_tame($v) : Fuzz::pick(['', '0', '-1', 'on', "\0", '999999999999999999999']);
    if (in_array($name, ['rlock.wait', 'rlock.retry_delay'], true)) {
        $v = (string) fuzz_tame($v);
    }
    // (a bad value is taken, and every call that uses it throws a ValueError: no warning)
    if (fuzz_call(null, 'ini_set', [$name, $v]) !== false) {
        $l = fuzz_new(Fuzz::pick(['RLock', 'RSemaphore', 'RRateLimiter']));
        if ($l !== null) {
            fuzz_call_method_of($l);
        }
        fuzz_call(null, Fuzz::pick(['rlock_status', 'rlock_metrics']), []);
    }
    ini_restore($name);
}

/* Redis' side changes under the objects: scripts flushed, connections killed. */
function fuzz_fault(): void
{
    switch (Fuzz::int(0, 2)) {
        case 0: fuzz_redis('SCRIPT', 'FLUSH'); break;
        case 1: fuzz_redis('CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes'); break;
        default: fuzz_redis('FLUSHDB');
    }
}

/* ---------------------------------------------------------------------------------------
 * exit() inside the extension's callbacks and argument conversions, each in a process of its
 * own: it must end with the exit code given, no sanitizer report, no output. */

function fuzz_exit_case_name(int $case): string
{
    return [
        'exit in RLock::synchronized()', 'exit in RSemaphore::synchronized()', 'exit in a write side\'s synchronized()',
        'exit in a multi lock\'s synchronized()', 'exit in an onLost callback', 'exit in __toString of a key',
        'exit in __toString of an option', 'exit with a suspended Fiber holding', 'exit in synchronized() in a Fiber',
        'exit holding without auto_release, watchdog on',
    ][$case];
}

function fuzz_exit_case(int $case): void
{
    Fuzz::$dsn = RLOCK_TEST_DSN . '/15';
    $o = ['server' => Fuzz::$dsn, 'prefix' => "fuzz-exit:$case:", 'ttl' => 3000];
    $exit = fn () => exit(7);
    switch ($case) {
        case 0: (new RLock('k', $o))->synchronized($exit); break;
        case 1: (new RSemaphore('k', 2, $o))->synchronized($exit, 2); break;
        case 2:
            $rw = new RReadWriteLock('k', $o);
            $rw->writeLock()->synchronized($exit);
            break;
        case 3: RLock::multi(['a', 'b', 'c'], $o)->synchronized($exit); break;
        case 4:
            $l = new RLock('k', $o + ['watchdog' => true]);
            $l->onLost($exit);
            $l->lock();
            fuzz_redis('DEL', $l->key());
            for ($deadline = microtime(true) + 30; microtime(true) < $deadline;) {
                usleep(1000);
            }
            break;
        case 5: new RLock(new FuzzExitString(), $o); break;
        case 6: new RRateLimiter('k', 5, 1000, ['prefix' => new FuzzExitString()] + $o); break;
        case 7:
            $f = new Fiber(function () use ($o) {
                $l = new RLock('k', $o);
                $l->lock();
                $s = new RSemaphore('s', 3, $o);
                $s->acquire(2);
                Fiber::suspend([$l, $s]);
            });
            $held = $f->start();
            exit(7);
        case 8:
            $f = new Fiber(fn () => (new RLock('k', $o))->synchronized($exit));
            $f->start();
            break;
        case 9:
            $l = new RLock('k', ['auto_release' => false, 'watchdog' => true] + $o);
            $l->lock();
            $s = new RSemaphore('s', 2, ['auto_release' => false, 'watchdog' => true] + $o);
            $s->acquire();
            exit(7);
    }
}

/* ---------------------------------------------------------------------------------------
 * Main (last: the constants and classes above are declared by then) */

$opt = getopt('', ['seed:', 'seconds:', 'calls:', 'worker', 'exit-case:']);
$seed = isset($opt['seed']) ? (int) $opt['seed'] : random_int(1, 2147483647);
$seconds = (float) ($opt['seconds'] ?? 60);
$calls = (int) ($opt['calls'] ?? 0);

if (isset($opt['worker'])) {
    exit(fuzz_worker($seed, $seconds, $calls));
}
if (isset($opt['exit-case'])) {
    fuzz_exit_case((int) $opt['exit-case']);
    exit(3);  // the case did not exit where it should have
}
exit(fuzz_supervise($seed, $seconds, $calls));
