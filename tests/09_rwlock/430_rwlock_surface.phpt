--TEST--
RReadWriteLock: a final class whose readLock() and writeLock() return RLocks, typed; each side is one object
--EXTENSIONS--
rlock
--FILE--
<?php
$c = new ReflectionClass('RReadWriteLock');
var_dump($c->isFinal());
foreach ($c->getMethods() as $m) {
    $params = array_map(fn ($p) => $p->getType() . ' $' . $p->getName() . ($p->isOptional() ? ' = ' . var_export($p->getDefaultValue(), true) : ''), $m->getParameters());
    echo $m->getName(), '(', implode(', ', $params), ')', $m->hasReturnType() ? ': ' . $m->getReturnType() : '', "\n";
}
$rw = new RReadWriteLock('stock', ['server' => 'redis://127.0.0.1:1']);
var_dump($rw->readLock() instanceof RLock, $rw->readLock() === $rw->readLock(), $rw->writeLock() === $rw->writeLock(), $rw->readLock() !== $rw->writeLock());
// the sides' key(): the lock's own (the prefix included), as the user named it; their Redis
// keys are its companions, distinct from a mutex's
var_dump($rw->readLock()->key(), $rw->writeLock()->key(), $rw->readLock()->token());
try {
    serialize($rw);
} catch (Exception $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
try {
    clone $rw;
} catch (Error $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
?>
--EXPECT--
bool(true)
__construct(string $key, array $options = array (
))
readLock(): RLock
writeLock(): RLock
onLost(?callable $fn): static
bool(true)
bool(true)
bool(true)
bool(true)
string(11) "rlock:stock"
string(11) "rlock:stock"
NULL
Exception: Serialization of 'RReadWriteLock' is not allowed
Error: Trying to clone an uncloneable object of class RReadWriteLock
