<?php

declare(strict_types=1);

namespace RLock\Bridge\Testing;

use RLock\Bridge\Options;
use RLock\LockInterface;

/**
 * An RLock in memory, for unit tests of code typed against RLock\LockInterface, without Redis
 * (and without the extension: bridge/polyfill.php declares the interface and exceptions).
 *
 * It keeps RLock's semantics within one process: two objects of one key exclude each other
 * unless they are reentrant in one execution context (the main flow, a Fiber: nested holds
 * counted, released at the outermost unlock()); a lease ends by the clock (ttl(), lost on
 * unlock() or extend() once another took it); fencing tokens increase; forceUnlock() and
 * restore() as RLock's; onLost() as the backend tells it (InMemoryBackend). Options are checked as RLock's are (server and the like are taken and
 * ignored). A wait never sleeps: lock($waitMs) takes the key when its holder's lease ends
 * within the wait, and either way moves the backend's clock on by what it waited.
 *
 *     $lock = new InMemoryLock('order:7', ['ttl' => 5000]);
 *     $service = new Checkout($lock);          // typed against RLock\LockInterface
 */
class InMemoryLock implements LockInterface
{
    private const FOREVER_MS = 2147483647;

    private InMemoryBackend $backend;
    private string $key;
    /** what messages call it: "lock", a read-write lock's "read lock" or "write lock" */
    private string $noun = 'lock';
    /** the slot of its holds, the other side's of a read-write lock (null: a mutex), and the
     * slot whose fencing tokens it takes (a read-write lock's: the write side's) */
    private string $slot;
    private ?string $other = null;
    private string $fenceSlot;
    private bool $shared = false;
    private int $ttl;
    private int $wait;
    private bool $reentrant;
    private bool $fencing;
    private ?string $token = null;
    private int $holds = 0;
    private ?int $fence = null;
    private bool $lost = false;
    /** @var ?callable onLost()'s */
    private $onLost = null;

    /** @param array<string, mixed> $options RLock's options: ttl, wait, prefix, reentrant and fencing count */
    public function __construct(string $key, array $options = [], ?InMemoryBackend $backend = null)
    {
        if ($key === '') {
            throw new \ValueError(static::class . '::__construct(): Argument #1 ($key) must not be empty');
        }
        $o = Options::check($options, 'RLock', static::class . '::__construct', 2);
        $this->backend = $backend ?? InMemoryBackend::shared();
        $this->key = ($o['prefix'] ?? 'rlock:') . $key;
        $this->slot = $this->fenceSlot = "lock\0$this->key";
        $this->ttl = $o['ttl'] ?? 30000;
        $this->wait = $o['wait'] ?? 0;
        $this->reentrant = $o['reentrant'] ?? true;
        $this->fencing = $o['fencing'] ?? false;
    }

    /** @internal a read-write lock's side (InMemoryReadWriteLock) */
    public static function side(string $key, bool $write, array $options, InMemoryBackend $backend): self
    {
        $lock = new self($key, $options, $backend);
        $lock->slot = ($write ? "write\0" : "read\0") . $lock->key;
        $lock->other = ($write ? "read\0" : "write\0") . $lock->key;
        $lock->fenceSlot = "write\0$lock->key";
        $lock->shared = !$write;
        $lock->noun = $write ? 'write lock' : 'read lock';
        return $lock;
    }

    public function lock(?int $waitMs = null): bool
    {
        $waitMs ??= $this->wait;
        if ($waitMs < 0) {
            throw new \ValueError(static::class . '::lock(): Argument #1 ($waitMs) must be greater than or equal to 0');
        }
        if ($this->take()) {
            return true;
        }
        // nothing else runs while we wait: the key is ours when what holds it ends in time
        $free = $this->freeAt() - $this->backend->now();
        $this->backend->advance(min($free, $waitMs));
        return $free <= $waitMs && $this->take();
    }

    public function tryLock(): bool
    {
        return $this->take();
    }

    public function unlock(): bool
    {
        if ($this->holds === 0) {
            return false;
        }
        $token = $this->token;
        $h = $this->backend->holders($this->slot)[$token] ?? null;
        if ($h === null) {
            return $this->foundLost();
        }
        if (--$this->holds === 0) {
            $this->token = null;
        }
        if ($h['count'] > 1) {
            $this->backend->hold($this->slot, $token, $h['until'], $h['count'] - 1, 1, $h['context'], $h['fence']);
        } else {
            $this->backend->drop($this->slot, $token);
        }
        return true;
    }

    public function extend(?int $ttlMs = null): bool
    {
        $ttlMs ??= $this->ttl;
        Options::checkMs($ttlMs, static::class . '::extend(): Argument #1 ($ttlMs)');
        if ($this->holds === 0) {
            return false;
        }
        $h = $this->backend->holders($this->slot)[$this->token] ?? null;
        if ($h === null) {
            return $this->foundLost();
        }
        $this->backend->hold($this->slot, $this->token, $this->backend->now() + $ttlMs, $h['count'], 1, $h['context'], $h['fence']);
        return true;
    }

    public function restore(#[\SensitiveParameter] string $token): bool
    {
        if ($this->holds > 0) {
            throw new \RLockException(static::class . '::restore(): this object holds the lock already');
        }
        if ($token === '') {
            throw new \ValueError(static::class . '::restore(): Argument #1 ($token) must not be empty');
        }
        if (!isset($this->backend->holders($this->slot)[$token])) {
            return false;
        }
        [$this->token, $this->holds, $this->lost, $this->fence] = [$token, 1, false, null];
        return true;
    }

    public function forceUnlock(): bool
    {
        [$this->token, $this->holds] = [null, 0];
        return $this->backend->drop($this->slot);
    }

    public function synchronized(callable $fn, ?int $waitMs = null): mixed
    {
        $waitMs ??= $this->wait;
        if (!$this->lock($waitMs)) {
            throw new \RLockTimeoutException(sprintf('Could not acquire the %s "%s" within %d ms', $this->noun, $this->key, $waitMs));
        }
        return InMemoryBackend::run($this, $fn, fn (): bool => $this->holds > 0 ? $this->unlock() : !$this->lost,
            sprintf('The %s "%s" expired before it was released', $this->noun, $this->key));
    }

    public function isLocked(): bool
    {
        return $this->backend->holders($this->slot) !== [];
    }

    public function isAcquired(): bool
    {
        return $this->holds > 0 && isset($this->backend->holders($this->slot)[$this->token]);
    }

    public function ttl(): int
    {
        $holders = $this->backend->holders($this->slot);
        return $holders === [] ? -2 : max(array_column($holders, 'until')) - $this->backend->now();
    }

    public function token(): ?string
    {
        return $this->token;
    }

    public function fencingToken(): ?int
    {
        return $this->holds > 0 && $this->fencing ? $this->fence : null;
    }

    public function key(): string
    {
        return $this->key;
    }

    public function lost(): bool
    {
        return $this->lost;
    }

    public function onLost(?callable $fn): static
    {
        $this->onLost = $fn;
        $this->backend->watch($this, $fn !== null);
        return $this;
    }

    /** @internal the backend's: our hold found gone (the clock past its lease, forced out) is lost, $fn told once */
    public function tellLost(): void
    {
        if ($this->holds === 0 || $this->onLost === null || isset($this->backend->holders($this->slot)[$this->token])) {
            return;
        }
        $this->foundLost();
        ($this->onLost)($this);
    }

    /** One attempt: re-enter our context's hold, or take the key when nothing blocks it. */
    private function take(): bool
    {
        $holders = $this->backend->holders($this->slot);
        foreach ($holders as $token => $h) {
            if ($this->reentrant && InMemoryBackend::ours($h['context'])) {
                if ($this->fencing && $h['fence'] === null) {
                    // as the extension's: no fencing token is issued inside a hold
                    throw new \RLockException("Cannot re-enter the $this->noun \"$this->key\" with \"fencing\": the "
                        . 'calling context (this Fiber, or the main flow) holds it already through a hold that has no '
                        . 'fencing token (taken without "fencing", or restored), and a token issued inside it would not '
                        . 'fence what it did before; take the outermost hold with "fencing" => true');
                }
                // our context holds it: one more hold, its lease from now, its fencing token
                $this->backend->hold($this->slot, $token, $this->backend->now() + $this->ttl, $h['count'] + 1, 1, $h['context'],
                    $h['fence']);
                if ($this->token !== $token) {
                    [$this->token, $this->holds, $this->lost] = [$token, 0, false];
                }
                $this->fence = $this->fencing ? $h['fence'] : $this->fence;
                $this->holds++;
                return true;
            }
        }
        if ($this->other !== null && !$this->shared && $this->reentrant) {
            foreach ($this->backend->holders($this->other) as $r) {
                if (InMemoryBackend::ours($r['context'])) {
                    // a writer waits for every reader, ours too: it would wait for itself
                    throw new \RLockException("Cannot lock the write lock \"$this->key\": the calling context (this "
                        . 'Fiber, or the main flow) holds its read lock already, and would wait for itself (a writer '
                        . 'waits for every reader to leave); release the read lock first');
                }
            }
        }
        if ($this->blockers($holders) !== []) {
            return false;
        }
        $token = InMemoryBackend::token();
        // a reader gets the write side's last fencing token, a writer or a mutex the next one
        $this->fence = $this->fencing ? $this->backend->fence($this->fenceSlot, !$this->shared) : null;
        $this->backend->hold($this->slot, $token, $this->backend->now() + $this->ttl, 1, 1, InMemoryBackend::context(),
            $this->fence);
        [$this->token, $this->holds, $this->lost] = [$token, 1, false];
        return true;
    }

    /** The holds that keep a new hold out: another's of an exclusive key; a writer, for a reader
     * (not our own context's, when reentrant); any reader, for a writer. */
    private function blockers(array $holders): array
    {
        if ($this->other === null) {
            return $holders;
        }
        $others = $this->backend->holders($this->other);
        if ($this->shared) {
            return array_filter($others, fn (array $w): bool => !($this->reentrant && InMemoryBackend::ours($w['context'])));
        }
        return $holders + $others;
    }

    /** When (our ms) every hold that keeps us out has ended; FOREVER_MS from now when none will. */
    private function freeAt(): int
    {
        $until = array_column($this->blockers($this->backend->holders($this->slot)), 'until');
        return $until === [] ? $this->backend->now() + self::FOREVER_MS : max($until);
    }

    /** unlock() or extend() found the hold gone: neither it nor a hold nested in it is ours. */
    private function foundLost(): bool
    {
        [$this->token, $this->holds, $this->lost] = [null, 0, true];
        return false;
    }
}
