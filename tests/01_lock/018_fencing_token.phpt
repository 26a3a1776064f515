--TEST--
fencingToken() strictly increases across successive holders with "fencing"; null without it
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['fencing' => true, 'reentrant' => false]);
$a = new RLock('fence', $o);
$b = new RLock('fence', $o);
var_dump($a->fencingToken());
$last = 0;
$ok = true;
for ($i = 0; $i < 50; $i++) {
    $holder = $i % 2 ? $a : $b;
    if (!$holder->tryLock()) {
        die("tryLock failed at $i\n");
    }
    $f = $holder->fencingToken();
    $ok = $ok && is_int($f) && $f > $last;
    $last = $f;
    $holder->unlock();
    if ($holder->fencingToken() !== null) {
        $ok = false;
    }
}
var_dump($ok);

// a holder whose lease ran out does not reset the sequence
var_dump($a->tryLock());
$f1 = $a->fencingToken();
rlock_test_cmd('DEL', $a->key());
var_dump($b->tryLock());
var_dump($b->fencingToken() > $f1);
$b->unlock();
$a->unlock();

// without the option: null, and no fence counter in Redis
$plain = new RLock('plain', rlock_test_options());
var_dump($plain->tryLock(), $plain->fencingToken());
var_dump(rlock_test_cmd('EXISTS', rlock_test_companion($plain->key(), 'fence')));
$plain->unlock();
?>
--EXPECT--
NULL
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
NULL
int(0)
