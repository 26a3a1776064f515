--TEST--
onLost(): a callable or null (TypeError otherwise, naming $fn); a private method callable where onLost() was called is called from anywhere; null removes the callback; a Closure holding its lock does not keep it alive (the cycle collector frees both, releasing the lock)
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../onlost.inc';
$o = rlock_test_options(['ttl' => 300 * rlock_test_slow(), 'watchdog' => true]);
foreach ([new RLock('a', $o), new RSemaphore('s', 2, $o), new RReadWriteLock('rw', $o)] as $x) {
    try {
        $x->onLost('no such function');
    } catch (TypeError $e) {
        echo $e->getMessage(), "\n";
    }
    var_dump($x->onLost(null) === $x);
}

final class Stock
{
    public RLock $lock;

    public function __construct(array $o)
    {
        $this->lock = (new RLock('stock', $o))->onLost([$this, 'lost']);
    }

    private function lost(RLock $lock): void
    {
        $GLOBALS['lost'][] = 'Stock::lost()';
    }
}
$stock = new Stock($o);
var_dump($stock->lock->lock());
rlock_test_cmd('DEL', $stock->lock->key());
var_dump(rlock_test_spin(1));

// removed: the loss is found, nothing is called
$r = (new RLock('removed', $o))->onLost(rlock_test_on_lost('removed'))->onLost(null);
var_dump($r->lock());
rlock_test_cmd('DEL', $r->key());
$deadline = hrtime(true) + 5e9 * rlock_test_slow();
while (!$r->lost() && hrtime(true) < $deadline) {
    usleep(10000);
}
var_dump($r->lost(), $GLOBALS['lost']);

// a cycle: the lock's callback holds the lock
$c = new RLock('cycle', $o);
$c->onLost(function () use ($c) {
});
var_dump($c->lock());
$key = $c->key();
unset($c);
gc_collect_cycles();
var_dump(rlock_test_cmd('EXISTS', $key));
// the Stock and its callback are a cycle too: collected before the request's end, which
// collects none (a leak under LeakSanitizer)
unset($stock);
gc_collect_cycles();
?>
--EXPECT--
RLock::onLost(): Argument #1 ($fn) must be a valid callback or null, function "no such function" not found or invalid function name
bool(true)
RSemaphore::onLost(): Argument #1 ($fn) must be a valid callback or null, function "no such function" not found or invalid function name
bool(true)
RReadWriteLock::onLost(): Argument #1 ($fn) must be a valid callback or null, function "no such function" not found or invalid function name
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
array(1) {
  [0]=>
  string(13) "Stock::lost()"
}
bool(true)
int(0)
