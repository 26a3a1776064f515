--TEST--
A grant popped by a waiter that is not one a release of ours pushes (spaces, a short token, a fence or ttl that is not a number in range, not a string): never adopted, the waiter waits on; a well-formed one is
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../fake_redis.inc';
$ok = str_repeat('0123456789abcdef', 2);
$grants = [
    // the control: a grant as a release of ours pushes it is adopted
    'well-formed' => "$ok 1 30000",
    'spaces' => '   ',
    'short token' => 'abc 1 1000',
    'fence not a number' => "$ok x 1000",
    'negative fence' => "$ok -1 1000",
    'fence past PHP_INT_MAX' => "$ok 99999999999999999999 1000",
    'ttl 0' => "$ok 1 0",
    'negative ttl' => "$ok 1 -5",
    'ttl with bytes after it' => "$ok 1 1000x",
    'an integer' => 5,
    'nil' => null,
];
foreach ($grants as $what => $grant) {
    // the key is taken (the SET fails, the script says so), and every BLPOP pops $grant
    $fake = rlock_fake_redis(fn (array $argv) => match (strtoupper($argv[0])) {
        'SET' => "\$-1\r\n",
        'EVAL', 'EVALSHA' => rlock_resp([0, 5000, 5000]),
        'BLPOP' => rlock_resp(['{rlock:k}:grants', $grant]),
        default => "+OK\r\n",
    });
    $l = new RLock('k', ['server' => $fake['dsn'], 'auto_release' => false]);
    try {
        // the well-formed grant is adopted as it comes (a forked fake under valgrind beside
        // another job took longer than 200 ms to send it); the others wait out 200 ms
        $got = var_export($l->lock($what === 'well-formed' ? 20000 : 200), true);
        echo "$what: $got, token ", var_export($l->token(), true), "\n";
    } catch (RLockException $e) {
        echo "$what: ", get_class($e), ': ', str_replace($fake['addr'], 'FAKE', $e->getMessage()), "\n";
    }
    $fake['stop']();
}
?>
--EXPECT--
well-formed: true, token '0123456789abcdef0123456789abcdef'
spaces: false, token NULL
short token: false, token NULL
fence not a number: false, token NULL
negative fence: false, token NULL
fence past PHP_INT_MAX: false, token NULL
ttl 0: false, token NULL
negative ttl: false, token NULL
ttl with bytes after it: false, token NULL
an integer: false, token NULL
nil: false, token NULL
