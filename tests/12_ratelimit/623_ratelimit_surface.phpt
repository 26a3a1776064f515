--TEST--
RRateLimiter: the surface (final, not serializable, not clonable, RLock\RateLimiterInterface, which a user's test double implements), and var_dump() shows the limit, never a password
--EXTENSIONS--
rlock
--FILE--
<?php
foreach (['RLock\RateLimiterInterface', 'RRateLimiter'] as $c) {
    $r = new ReflectionClass($c);
    echo $c, ($r->isFinal() ? ' final' : ''), ($r->isInterface() ? ' interface' : ''), ': ', implode(', ', $r->getInterfaceNames()), "\n";
    foreach ($r->getMethods() as $m) {
        $params = array_map(fn (ReflectionParameter $p) => $p->getType() . ' $' . $p->getName()
            . ($p->isOptional() ? ' = ' . json_encode($p->getDefaultValue()) : ''), $m->getParameters());
        printf("  %s%s(%s): %s\n", $m->isStatic() ? 'static ' : '', $m->getName(), implode(', ', $params), $m->getReturnType());
    }
}
$l = new RRateLimiter('api', 100, 1000, ['server' => 'redis://:s3cret@127.0.0.1:1', 'burst' => 20, 'fair' => false]);
try {
    serialize($l);
} catch (Exception $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
try {
    clone $l;
} catch (Error $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
$dump = print_r($l, true);
echo str_contains($dump, 's3cret') ? "password shown\n" : "password masked\n";
echo implode("\n", array_slice(explode("\n", $dump), 0, 9)), "\n";
// a double of the user's: the interface is all it needs
$fake = new class implements RLock\RateLimiterInterface {
    public function tryAcquire(int $n = 1): bool { return true; }
    public function acquire(int $n = 1, ?int $waitMs = null): bool { return true; }
    public function retryAfter(): int { return 0; }
    public function remaining(): int { return 1; }
    public function reset(): void {}
};
$shed = fn (RLock\RateLimiterInterface $l): string => $l->tryAcquire() ? 'served' : 'shed';
echo $shed($fake), "\n";
?>
--EXPECT--
RLock\RateLimiterInterface interface: 
  tryAcquire(int $n = 1): bool
  acquire(int $n = 1, ?int $waitMs = null): bool
  retryAfter(): int
  remaining(): int
  reset(): void
RRateLimiter final: RLock\RateLimiterInterface
  __construct(string $name, int $limit, int $periodMs, array $options = []): 
  tryAcquire(int $n = 1): bool
  acquire(int $n = 1, ?int $waitMs = null): bool
  retryAfter(): int
  remaining(): int
  reset(): void
  static all(array $limiters, int $n = 1): bool
Exception: Serialization of 'RRateLimiter' is not allowed
Error: Trying to clone an uncloneable object of class RRateLimiter
password masked
RRateLimiter Object
(
    [name] => rlock:api
    [limit] => 100
    [period_ms] => 1000
    [burst] => 20
    [options] => Array
        (
            [server] => redis://***@127.0.0.1:1
served
