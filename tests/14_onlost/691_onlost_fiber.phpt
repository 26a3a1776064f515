--TEST--
onLost(): the callback runs in whatever context runs when the loss is found: the main flow for a suspended Fiber's hold, a Fiber for the main flow's; it cannot switch Fibers there; its exception surfaces in that Fiber
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../onlost.inc';
$o = rlock_test_options(['ttl' => 300 * rlock_test_slow(), 'watchdog' => true]);

// a suspended Fiber's hold: told in the main flow, which spins
$f = new Fiber(function () use ($o) {
    $l = (new RLock('fiber', $o))->onLost(rlock_test_on_lost("the Fiber's lock"));
    Fiber::suspend([$l->lock(), $l]);
    return $l->unlock();
});
[$ok, $fl] = $f->start();
var_dump($ok);
rlock_test_cmd('DEL', $fl->key());
var_dump(rlock_test_spin(1));
$f->resume();
var_dump($f->getReturn());

// the main flow's hold: told in the Fiber that spins; it cannot suspend there
$m = (new RLock('main', $o))->onLost(function () {
    try {
        Fiber::suspend();
    } catch (FiberError $e) {
        $GLOBALS['lost'][] = 'the main lock' . (Fiber::getCurrent() ? ' in a Fiber' : '') . ': ' . $e->getMessage();
    }
});
var_dump($m->lock());
$g = new Fiber(fn () => rlock_test_spin(2));
rlock_test_cmd('DEL', $m->key());
$g->start();
var_dump($g->getReturn());

// an exception from the callback surfaces in the Fiber that runs
$n = (new RLock('thrown', $o))->onLost(function () {
    throw new RuntimeException('lost');
});
var_dump($n->lock());
$h = new Fiber(function () {
    try {
        while (true) {
        }
    } catch (RuntimeException $e) {
        return 'caught in the Fiber: ' . $e->getMessage();
    }
});
rlock_test_cmd('DEL', $n->key());
$h->start();
var_dump($h->getReturn(), $GLOBALS['lost']);
?>
--EXPECTF--
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
string(25) "caught in the Fiber: lost"
array(2) {
  [0]=>
  string(16) "the Fiber's lock"
  [1]=>
  string(%d) "the main lock in a Fiber: Cannot switch fibers in current execution context"
}
