--TEST--
The PHP surface: final RLock with typed methods, the exception hierarchy, RLockLostException::getResult()
--EXTENSIONS--
rlock
--FILE--
<?php
$c = new ReflectionClass('RLock');
echo 'final: ', var_export($c->isFinal(), true), "\n";
foreach ($c->getMethods() as $m) {
    $params = array_map(function (ReflectionParameter $p) {
        $s = $p->getType() . ' $' . $p->getName();
        if ($p->isOptional()) {
            $s .= ' = ' . var_export($p->getDefaultValue(), true);
        }
        return $s;
    }, $m->getParameters());
    printf("%s%s(%s): %s\n", $m->isStatic() ? 'static ' : '', $m->getName(), implode(', ', $params), $m->getReturnType() ?? '-');
}
foreach (['RLockException', 'RLockConnectionException', 'RLockTimeoutException', 'RLockLostException'] as $e) {
    echo $e, ' extends ', get_parent_class($e), "\n";
}
$m = new ReflectionMethod('RLockLostException', 'getResult');
echo 'getResult(): ', $m->getReturnType(), "\n";
var_dump((new RLockLostException('x'))->getResult());
// the password arguments are marked sensitive (PHP 8.1 has no #[\SensitiveParameter]: nothing to mark)
foreach ([['RLock', '__construct', 'options'], ['RLock', 'release', 'token'], ['RLock', 'release', 'options'], ['RLock', 'restore', 'token']] as [$cl, $me, $pa]) {
    foreach ((new ReflectionMethod($cl, $me))->getParameters() as $p) {
        if ($p->getName() === $pa) {
            echo "$me \$$pa sensitive: ", var_export(PHP_VERSION_ID < 80200 || count($p->getAttributes('SensitiveParameter')) === 1, true), "\n";
        }
    }
}
?>
--EXPECT--
final: true
__construct(string $key, array $options = array (
)): -
lock(?int $waitMs = NULL): bool
tryLock(): bool
unlock(): bool
extend(?int $ttlMs = NULL): bool
restore(string $token): bool
forceUnlock(): bool
synchronized(callable $fn, ?int $waitMs = NULL): mixed
isLocked(): bool
isAcquired(): bool
ttl(): int
token(): ?string
fencingToken(): ?int
key(): string
lost(): bool
onLost(?callable $fn): static
static release(string $key, string $token, array $options = array (
)): bool
static releaseAll(): int
static multi(array $keys, array $options = array (
)): RLock
RLockException extends RuntimeException
RLockConnectionException extends RLockException
RLockTimeoutException extends RLockException
RLockLostException extends RLockException
getResult(): mixed
NULL
__construct $options sensitive: true
release $token sensitive: true
release $options sensitive: true
restore $token sensitive: true
