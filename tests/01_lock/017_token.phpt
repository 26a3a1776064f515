--TEST--
token(): 32 lowercase hex digits while held, null otherwise; no two acquisitions share one
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
$l = new RLock('tok', rlock_test_options());
var_dump($l->token());
$seen = [];
$bad = 0;
for ($i = 0; $i < 1000; $i++) {
    if (!$l->tryLock()) {
        die("tryLock failed at $i\n");
    }
    $t = $l->token();
    if (!is_string($t) || !preg_match('/^[0-9a-f]{32}$/D', $t) || rlock_test_cmd('GET', $l->key()) !== $t) {
        $bad++;
    }
    $seen[$t] = true;
    $l->unlock();
}
// other objects and other keys draw fresh tokens too
for ($i = 0; $i < 200; $i++) {
    $k = new RLock("tok$i", rlock_test_options());
    $k->tryLock();
    $seen[$k->token()] = true;
    $k->unlock();
}
var_dump($bad, count($seen));
var_dump($l->token());
?>
--EXPECT--
NULL
int(0)
int(1200)
NULL
