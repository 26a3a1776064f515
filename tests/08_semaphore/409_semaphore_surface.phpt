--TEST--
RSemaphore's surface: a final class with typed methods, not serializable, not clonable
--EXTENSIONS--
rlock
--FILE--
<?php
$c = new ReflectionClass('RSemaphore');
echo 'final: ', var_export($c->isFinal(), true), "\n";
foreach ($c->getMethods() as $m) {
    $params = array_map(function (ReflectionParameter $p) {
        $s = $p->getType() . ' $' . $p->getName();
        if ($p->isOptional()) {
            $s .= ' = ' . var_export($p->getDefaultValue(), true);
        }
        return $s;
    }, $m->getParameters());
    printf("%s(%s): %s\n", $m->getName(), implode(', ', $params), $m->getReturnType() ?? '-');
}
$s = new RSemaphore('s', 2);
foreach ([fn () => serialize($s), fn () => clone $s] as $f) {
    try {
        $f();
    } catch (Throwable $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
final: true
__construct(string $name, int $permits, array $options = array (
)): -
acquire(int $permits = 1, ?int $waitMs = NULL): bool
tryAcquire(int $permits = 1): bool
release(): bool
extend(?int $ttlMs = NULL): bool
held(): int
isAcquired(): bool
available(): int
synchronized(callable $fn, int $permits = 1, ?int $waitMs = NULL): mixed
onLost(?callable $fn): static
Exception: Serialization of 'RSemaphore' is not allowed
Error: Trying to clone an uncloneable object of class RSemaphore
