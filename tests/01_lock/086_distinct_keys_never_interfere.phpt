--TEST--
Distinct lock keys never share a Redis key: for pairs that once did (x and {x}, a prefix and a key that add up to another's companion, keys named like companions, braces, NUL, binary), one lock's acquire and release neither fail nor hand over the other while a waiter waits on it
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$srv = rlock_test_own_server();
$cmd = $srv['cmd'];

// [prefix, key] pairs whose full keys differ
$pairs = [
    [['', 'x'], ['', '{x}']],
    [['{', 'x}'], ['', 'x']],
    [['a', 'x'], ['', '{ax}']],
    [['rlock:', 'x'], ['', '{rlock:x}']],
    [['', 'x'], ['', '{x}:grants']],
    [['', 'x'], ['', '{x}:waiters']],
    [['', 'x'], ['', '{x}:fence']],
    [['', '{x}'], ['', '{x}:waiters']],
    [['', '{x}y'], ['', '{x}y:grants']],
    [['', 'a}b'], ['', '{a}b}']],
    [['', 'a:b'], ['', '{a:b}']],
    [['', "x\0"], ['', "{x\0}"]],
    [['', "\xff"], ['', "{\xff}"]],
    [['', 'x'], ['', '}{x}:grants']],
    [['', 'x'], ['', '}{x}:waiters']],
    [['}', '{x}:fence'], ['', 'x']],
    [['', '{x}'], ['', '}={x}:waiters']],
    [['', '}{x}:grants'], ['', '}}{x}:grants']],
    [['', '}'], ['', '}}']],
];

/* While $a holds its key and a child waits for it, $b is taken and released: $a stays held
 * and only $a's release hands it to the child. */
function check(array $a, array $b, string $dsn, callable $cmd, int $slow): string
{
    $opts = fn (array $k) => ['server' => $dsn, 'prefix' => $k[0], 'ttl' => 10000, 'fencing' => true];
    $la = new RLock($a[1], $opts($a));
    $lb = new RLock($b[1], $opts($b));
    if ($la->key() === $lb->key()) {
        return 'one Redis key for both';
    }
    if (!$la->tryLock()) {
        return 'a not taken';
    }
    [$up, $down] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    $pid = pcntl_fork();
    if ($pid === 0) {
        fclose($up);
        $w = new RLock($a[1], $opts($a));
        $got = $w->lock(10000 * $slow);
        fwrite($down, json_encode([$got, $got && $w->isAcquired()]) . "\n");
        exit(0);
    }
    fclose($down);
    for ($deadline = microtime(true) + 10 * $slow; !preg_match('/^blocked_clients:1/m', $cmd('INFO', 'clients'));) {
        if (microtime(true) > $deadline) {
            return 'the child never blocked';
        }
        usleep(5000);
    }
    $out = json_encode([$lb->tryLock(), $lb->unlock(), $la->isAcquired(), $la->unlock()]);
    $child = trim(fgets($up));
    pcntl_waitpid($pid, $status);
    return $out === '[true,true,true,true]' && $child === '[true,true]' ? 'ok' : "b, a: $out; a's waiter: $child";
}

// prefix|key, bytes outside ASCII in octal
$show = fn (array $k) => addcslashes($k[0], "\0..\37\177..\377") . '|' . addcslashes($k[1], "\0..\37\177..\377");
foreach ($pairs as [$a, $b]) {
    foreach ([[$a, $b], [$b, $a]] as [$x, $y]) {
        echo $show($x), ' while ', $show($y), ': ', check($x, $y, $srv['dsn'], $cmd, $slow), "\n";
    }
}
// the Redis key of a lock: prefix and key, a "}" put before a full key that begins with one
echo json_encode([(new RLock('{x}', ['prefix' => '']))->key(), (new RLock('x', ['prefix' => '}']))->key()]), "\n";
// all gone but the fencing counters, which expire
$left = $cmd('KEYS', '*');
echo json_encode(array_values(array_filter($left, fn ($k) => !str_ends_with($k, ':fence')))), "\n";
?>
--EXPECT--
|x while |{x}: ok
|{x} while |x: ok
{|x} while |x: ok
|x while {|x}: ok
a|x while |{ax}: ok
|{ax} while a|x: ok
rlock:|x while |{rlock:x}: ok
|{rlock:x} while rlock:|x: ok
|x while |{x}:grants: ok
|{x}:grants while |x: ok
|x while |{x}:waiters: ok
|{x}:waiters while |x: ok
|x while |{x}:fence: ok
|{x}:fence while |x: ok
|{x} while |{x}:waiters: ok
|{x}:waiters while |{x}: ok
|{x}y while |{x}y:grants: ok
|{x}y:grants while |{x}y: ok
|a}b while |{a}b}: ok
|{a}b} while |a}b: ok
|a:b while |{a:b}: ok
|{a:b} while |a:b: ok
|x\000 while |{x\000}: ok
|{x\000} while |x\000: ok
|\377 while |{\377}: ok
|{\377} while |\377: ok
|x while |}{x}:grants: ok
|}{x}:grants while |x: ok
|x while |}{x}:waiters: ok
|}{x}:waiters while |x: ok
}|{x}:fence while |x: ok
|x while }|{x}:fence: ok
|{x} while |}={x}:waiters: ok
|}={x}:waiters while |{x}: ok
|}{x}:grants while |}}{x}:grants: ok
|}}{x}:grants while |}{x}:grants: ok
|} while |}}: ok
|}} while |}: ok
["{x}","}}x"]
[]
