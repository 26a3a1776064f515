--TEST--
The interfaces user code types against and fakes: RLock\LockInterface (RLock, a read-write lock's sides, RLock::multi()), RLock\SemaphoreInterface (RSemaphore), RLock\ReadWriteLockInterface (RReadWriteLock); a class of the user's implements them
--EXTENSIONS--
rlock
--FILE--
<?php
$ext = new ReflectionExtension('rlock');
foreach (['RLock\LockInterface', 'RLock\SemaphoreInterface', 'RLock\ReadWriteLockInterface'] as $i) {
    $r = new ReflectionClass($i);
    echo $i, ': interface ', var_export($r->isInterface(), true), ', of rlock ',
        var_export(in_array($i, $ext->getClassNames(), true), true), "\n";
    foreach ($r->getMethods() as $m) {
        $params = array_map(fn (ReflectionParameter $p) => $p->getType() . ' $' . $p->getName()
            . ($p->isOptional() ? ' = ' . var_export($p->getDefaultValue(), true) : ''), $m->getParameters());
        printf("  %s(%s): %s\n", $m->getName(), implode(', ', $params), $m->getReturnType());
    }
}
$o = ['server' => 'redis://127.0.0.1:1'];
$rw = new RReadWriteLock('k', $o);
var_dump(new RLock('k', $o) instanceof RLock\LockInterface, RLock::multi(['a', 'b'], $o) instanceof RLock\LockInterface,
    $rw instanceof RLock\ReadWriteLockInterface, $rw->readLock() instanceof RLock\LockInterface,
    $rw->writeLock() instanceof RLock\LockInterface, new RSemaphore('s', 2, $o) instanceof RLock\SemaphoreInterface);
// a test double of the user's: the interface is all it needs
$fake = new class implements RLock\LockInterface {
    private ?string $token = null;
    public function lock(?int $waitMs = null): bool { return $this->tryLock(); }
    public function tryLock(): bool { $this->token ??= 'fake'; return true; }
    public function unlock(): bool { $held = $this->token !== null; $this->token = null; return $held; }
    public function extend(?int $ttlMs = null): bool { return $this->token !== null; }
    public function restore(#[\SensitiveParameter] string $token): bool { return false; }
    public function forceUnlock(): bool { return $this->unlock(); }
    public function synchronized(callable $fn, ?int $waitMs = null): mixed { $this->lock(); try { return $fn($this); } finally { $this->unlock(); } }
    public function isLocked(): bool { return $this->token !== null; }
    public function isAcquired(): bool { return $this->token !== null; }
    public function ttl(): int { return $this->token !== null ? 1000 : -2; }
    public function token(): ?string { return $this->token; }
    public function fencingToken(): ?int { return null; }
    public function key(): string { return 'fake'; }
    public function lost(): bool { return false; }
    public function onLost(?callable $fn): static { return $this; }
};
$charge = fn (RLock\LockInterface $l): string => $l->synchronized(fn () => 'charged');
var_dump($charge($fake));
?>
--EXPECT--
RLock\LockInterface: interface true, of rlock true
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
RLock\SemaphoreInterface: interface true, of rlock true
  acquire(int $permits = 1, ?int $waitMs = NULL): bool
  tryAcquire(int $permits = 1): bool
  release(): bool
  extend(?int $ttlMs = NULL): bool
  held(): int
  isAcquired(): bool
  available(): int
  synchronized(callable $fn, int $permits = 1, ?int $waitMs = NULL): mixed
  onLost(?callable $fn): static
RLock\ReadWriteLockInterface: interface true, of rlock true
  readLock(): RLock\LockInterface
  writeLock(): RLock\LockInterface
  onLost(?callable $fn): static
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
string(7) "charged"
