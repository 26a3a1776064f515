--TEST--
RLock::multi() over a key the calling context holds already (alone, or through another RLock::multi()) fails at once with an RLockException saying why, not after its whole wait; so does a plain lock on a key the context holds through RLock::multi(). Another context holding the key is no self-deadlock: it waits. The same multi lock taken again is reentrant.
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$o = rlock_test_options(['ttl' => 20000]);
$p = $o['prefix'];
$try = function (string $what, callable $fn) use ($p) {
    $t0 = hrtime(true);
    try {
        $r = var_export($fn(), true);
    } catch (RLockException $e) {
        $r = get_class($e) . ': ' . str_replace($p, 'PREFIX:', $e->getMessage());
    }
    echo "$what: $r\n";
    return (hrtime(true) - $t0) / 1e6;
};

$a = new RLock('a', $o);
$a->lock();
$ms = $try('multi [a, b] with a held, lock(10000)', fn () => RLock::multi(['a', 'b'], $o)->lock(10000));
echo "at once: ", var_export($ms < 5000, true), "\n";
$try('multi [b, a] with a held, tryLock()', fn () => RLock::multi(['b', 'a'], $o)->tryLock());
echo "b untouched: ", var_export(rlock_test_cmd('EXISTS', "{$p}b"), true), "\n";
$a->unlock();

$bc = RLock::multi(['b', 'c'], $o);
var_dump($bc->lock());
$try('multi [a, b] with multi [b, c] held', fn () => RLock::multi(['a', 'b'], $o)->lock(10000));
$try('plain b with multi [b, c] held', fn () => (new RLock('b', $o))->lock(10000));
$try('the same multi [c, b] again (reentrant)', fn () => RLock::multi(['c', 'b'], $o)->tryLock());
$try('multi [a, d], nothing of it held', function () use ($o) {
    $m = RLock::multi(['a', 'd'], $o);
    return $m->tryLock() && $m->unlock();
});
$bc->unlock();
$bc->unlock();

// another context holding a key: it waits (and gives up), no exception
$f = new Fiber(function () use ($o) { $l = new RLock('a', $o); Fiber::suspend($l->lock()); $l->unlock(); });
$f->start();
$try('multi [a, b] while a Fiber holds a, lock(200)', fn () => RLock::multi(['a', 'b'], $o)->lock(200));
$f->resume();
$try('multi [a, b] once the Fiber let go', fn () => RLock::multi(['a', 'b'], $o)->tryLock());
?>
--EXPECT--
multi [a, b] with a held, lock(10000): RLockException: RLock::multi() cannot take "PREFIX:a": the calling context (this Fiber, or the main flow) holds it already through another lock, and would wait for itself; release that lock first, or take every key in one RLock::multi()
at once: true
multi [b, a] with a held, tryLock(): RLockException: RLock::multi() cannot take "PREFIX:a": the calling context (this Fiber, or the main flow) holds it already through another lock, and would wait for itself; release that lock first, or take every key in one RLock::multi()
b untouched: 0
bool(true)
multi [a, b] with multi [b, c] held: RLockException: RLock::multi() cannot take "PREFIX:b": the calling context (this Fiber, or the main flow) holds it already through another lock, and would wait for itself; release that lock first, or take every key in one RLock::multi()
plain b with multi [b, c] held: RLockException: Cannot lock "PREFIX:b": the calling context (this Fiber, or the main flow) holds it already through an RLock::multi(), and would wait for itself; release that first
the same multi [c, b] again (reentrant): true
multi [a, d], nothing of it held: true
multi [a, b] while a Fiber holds a, lock(200): false
multi [a, b] once the Fiber let go: true
