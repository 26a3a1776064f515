--TEST--
RReadWriteLock: a context that holds the read side and asks for the write side gets an RLockException at once (a writer waits for every reader to leave, itself included: it would wait for itself), as RLock::multi() over a key it holds does; another Fiber, and an owner with reentrant off, wait as before; a writer still reads past itself
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
$o = rlock_test_options(['ttl' => 30000 * $slow]);
$rw = new RReadWriteLock('stock', $o);
$prefix = $o['prefix'];
$show = fn (Throwable $e) => get_class($e) . ': ' . str_replace($prefix, 'PREFIX:', $e->getMessage());

var_dump($rw->readLock()->lock());
foreach (['lock(3000)' => fn () => $rw->writeLock()->lock(3000 * $slow),
        'tryLock()' => fn () => $rw->writeLock()->tryLock(),
        'another object of this context, lock(3000)' => fn () => (new RReadWriteLock('stock', $o))->writeLock()->lock(3000 * $slow)]
        as $what => $try) {
    $t = microtime(true);
    try {
        $got = var_export($try(), true);
    } catch (RLockException $e) {
        $got = $show($e);
    }
    echo "$what: $got\n";
    // at once: the wait (3 s) is not waited out
    echo "  at once: ", var_export(microtime(true) - $t < 2.0 * $slow, true), "\n";
}
// nothing was asked of Redis: no waiting writer's mark keeps readers out
echo "writers waiting: ", rlock_test_cmd('ZCARD', rlock_test_companion($prefix . 'stock', 'writers')), "\n";
echo "a reader of another process gets in: ";
$pid = pcntl_fork();
if ($pid === 0) {
    exit((new RReadWriteLock('stock', $o))->readLock()->tryLock() ? 0 : 1);
}
pcntl_waitpid($pid, $status);
var_dump(rlock_test_exit($status) === 0);

// another owner (reentrant off) in this context waits as another process would
$other = new RReadWriteLock('stock', ['reentrant' => false] + $o);
echo "reentrant off, write: ", var_export($other->writeLock()->lock(100), true), "\n";
// another Fiber waits too
$f = new Fiber(fn () => [$rw->writeLock()->tryLock(), $rw->writeLock()->lock(100)]);
$f->start();
echo "another Fiber, write, write(100): ", json_encode($f->getReturn()), "\n";
// a reader of reentrant off's own is another owner: the main flow's writer waits for it
var_dump($rw->readLock()->unlock(), $other->readLock()->lock());
echo "write past another owner's reader of this context: ", var_export($rw->writeLock()->lock(100), true), "\n";
var_dump($other->readLock()->unlock());

// once the read side is given back the write side is taken, and a writer reads past itself
var_dump($rw->writeLock()->lock(), $rw->readLock()->tryLock(), $rw->readLock()->unlock(), $rw->writeLock()->unlock());
?>
--EXPECT--
bool(true)
lock(3000): RLockException: Cannot lock the write lock "PREFIX:stock": the calling context (this Fiber, or the main flow) holds its read lock already, and would wait for itself (a writer waits for every reader to leave); release the read lock first
  at once: true
tryLock(): RLockException: Cannot lock the write lock "PREFIX:stock": the calling context (this Fiber, or the main flow) holds its read lock already, and would wait for itself (a writer waits for every reader to leave); release the read lock first
  at once: true
another object of this context, lock(3000): RLockException: Cannot lock the write lock "PREFIX:stock": the calling context (this Fiber, or the main flow) holds its read lock already, and would wait for itself (a writer waits for every reader to leave); release the read lock first
  at once: true
writers waiting: 0
a reader of another process gets in: bool(true)
reentrant off, write: false
another Fiber, write, write(100): [false,false]
bool(true)
bool(true)
write past another owner's reader of this context: false
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
