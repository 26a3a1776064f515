--TEST--
redis://host:port/db selects that database; the same key in two databases is two locks
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$base = RLOCK_TEST_DSN;
$prefix = 'rlock-test-033:' . getmypid() . ':';
$in5 = new RLock('k', ['server' => "$base/5", 'prefix' => $prefix]);
$in0 = new RLock('k', ['server' => "$base/0", 'prefix' => $prefix]);
var_dump($in5->tryLock());
rlock_test_cmd('SELECT', '5');
var_dump(rlock_test_cmd('GET', $in5->key()) === $in5->token());
rlock_test_cmd('SELECT', '0');
var_dump(rlock_test_cmd('EXISTS', $in5->key()));
echo "db 0 is free: "; var_dump($in0->isLocked(), $in0->tryLock());
var_dump($in0->token() !== $in5->token());
var_dump($in5->unlock(), $in0->unlock());
rlock_test_cmd('SELECT', '5');
var_dump(rlock_test_cmd('EXISTS', $in5->key()));
rlock_test_cmd('SELECT', '0');

try {
    (new RLock('k', ['server' => "$base/100000"]))->tryLock();
} catch (RLockException $e) {
    echo get_class($e), ': ', str_replace((string) RLOCK_TEST_PORT, 'PORT', $e->getMessage()), "\n";
}
?>
--EXPECTF--
bool(true)
bool(true)
int(0)
db 0 is free: bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
RLockConnectionException: Redis 127.0.0.1:PORT: SELECT 100000 failed: ERR %s
