--TEST--
RRateLimiter: tryAcquire() takes n permits or none: the burst at once, then nothing until they are due; every object of the name shares the one limit
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options();
// 3 per minute: nothing is due again while the test runs
$a = new RRateLimiter('login:42', 3, 60000, $o);
$b = new RRateLimiter('login:42', 3, 60000, $o);
var_dump($a->tryAcquire(2), $b->tryAcquire(2), $b->tryAcquire(), $a->tryAcquire(), $b->tryAcquire());
// another name is another limit
var_dump((new RRateLimiter('login:43', 3, 60000, $o))->tryAcquire(3));
// one Redis key per limit, not the lock's of the same name
$keys = rlock_test_cmd('KEYS', '*' . $o['prefix'] . '*');
sort($keys);
echo str_replace($o['prefix'], 'PREFIX:', implode("\n", $keys)), "\n";
var_dump((new RLock('login:42', $o))->tryLock());
?>
--EXPECT--
bool(true)
bool(false)
bool(true)
bool(false)
bool(false)
bool(true)
}{PREFIX:login:42}:rate
}{PREFIX:login:43}:rate
bool(true)
