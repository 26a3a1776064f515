--TEST--
A server's own words never carry the password into an exception: a SELECT refusal, an error reply to the lock's script, a CLUSTER SLOTS error and a MOVED to a host named like the password all show it as ***
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../fake_redis.inc';
$secret = 'Sup3r-Secret-Pw';
function attempt(string $what, array $options, array $fake, string $secret): void
{
    try {
        $l = new RLock('k', $options + ['read_timeout' => 2000, 'connect_timeout' => 500]);
        $got = var_export($l->tryLock(), true);
        echo "$what: $got\n";
    } catch (RLockException $e) {
        $m = str_replace($fake['addr'], 'FAKE', $e->getMessage());
        echo "$what: ", get_class($e), ': ', str_contains($m, $secret) ? "LEAK $m" : $m, "\n";
    }
    $fake['stop']();
}
// SELECT refused with the password in its text
$fake = rlock_fake_redis(['AUTH' => "+OK\r\n", 'SELECT' => "-ERR no db for '$secret'\r\n"]);
attempt('SELECT', ['server' => "redis://:$secret@" . $fake['addr'] . '/3'], $fake, $secret);
// the acquire answered by an error carrying it, cut past 200 bytes in the middle of it
$fake = rlock_fake_redis(['AUTH' => "+OK\r\n", 'SET' => '-ERR ' . str_repeat('x', 190) . " $secret $secret\r\n"]);
attempt('SET', ['server' => "redis://:$secret@" . $fake['addr']], $fake, $secret);
// CLUSTER SLOTS refused with it
$fake = rlock_fake_redis(['AUTH' => "+OK\r\n", 'CLUSTER' => "-ERR $secret\r\n"]);
attempt('CLUSTER SLOTS', ['cluster' => ["redis://:$secret@" . $fake['addr']]], $fake, $secret);
// a MOVED whose host is the password (a loopback address where nothing listens): the
// connection to it fails at once, naming the host
$secret = '127.0.0.2';
$fake = rlock_fake_redis(fn (array $argv, int $n, array $me) => match (strtoupper($argv[0])) {
    'CLUSTER' => rlock_resp([[0, 16383, ['127.0.0.1', $me['port']]]]),
    'AUTH' => "+OK\r\n",
    'SET' => "-MOVED 3999 $secret:1\r\n",
    default => ":1\r\n",
});
attempt('MOVED', ['cluster' => ["redis://:$secret@" . $fake['addr']]], $fake, $secret);
?>
--EXPECTF--
SELECT: RLockConnectionException: Redis FAKE: SELECT 3 failed: ERR no db for '***'
SET: RLockException: Redis FAKE: ERR xxx%s*** ***
CLUSTER SLOTS: RLockException: Redis FAKE: CLUSTER SLOTS: ERR ***
MOVED: RLockConnectionException: Redis ***:1: cannot connect: Connection refused
