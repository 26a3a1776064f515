--TEST--
An AUTH refusal is told in rlock's words, never the server's: a hostile server that echoes the password back does not get it into the exception
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../fake_redis.inc';
$secret = 'Sup3r-Secret-Pw';
$answers = [
    'ERR with the password' => "-ERR invalid password '$secret'\r\n",
    'WRONGPASS with the password' => "-WRONGPASS $secret is not the password\r\n",
    'the password as the code' => "-$secret\r\n",
    'no password set, and the password' => "-ERR AUTH <password> called without any password configured for the default user. $secret\r\n",
    'status other than OK' => "+$secret\r\n",
    'a string' => rlock_resp($secret),
];
foreach ($answers as $what => $answer) {
    $fake = rlock_fake_redis(['AUTH' => $answer, 'SET' => "+OK\r\n", 'EVALSHA' => ":1\r\n"]);
    try {
        $l = new RLock('k', ['server' => "redis://user:$secret@" . $fake['addr']]);
        $got = var_export($l->tryLock(), true);
        echo "$what: $got\n";
    } catch (RLockException $e) {
        $m = str_replace($fake['addr'], 'FAKE', $e->getMessage());
        echo "$what: ", get_class($e), ': ', str_contains($m, $secret) ? 'LEAK' : $m, "\n";
    }
    $fake['stop']();
}
?>
--EXPECT--
ERR with the password: RLockConnectionException: Redis FAKE: authentication failed: the server refused the credentials
WRONGPASS with the password: RLockConnectionException: Redis FAKE: authentication failed: WRONGPASS (wrong user name or password, or the user is disabled)
the password as the code: RLockConnectionException: Redis FAKE: authentication failed: the server refused the credentials
no password set, and the password: RLockConnectionException: Redis FAKE: authentication failed: the server has no password set
status other than OK: RLockConnectionException: Redis FAKE: authentication failed: unexpected reply
a string: RLockConnectionException: Redis FAKE: authentication failed: unexpected reply
