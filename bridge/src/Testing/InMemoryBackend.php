<?php

declare(strict_types=1);

namespace RLock\Bridge\Testing;

/**
 * What the in-memory test doubles share: who holds each lock and semaphore, each rate
 * limit's theoretical arrival time, and a clock.
 * One process' memory standing in for Redis: objects of one key exclude each other as
 * rlock's do within a process (reentrant within one execution context: the main flow, a
 * Fiber; a Fiber that ended holds nothing), leases end by the clock, and a wait never sleeps:
 * the clock moves on by what it waited. advance() lets time pass in a test. A double with an
 * onLost() callback is told when its hold is found gone, as the watchdog would tell it: when
 * the clock moves past its lease (advance(), a wait) or another object forces it out
 * (forceUnlock()), once per hold.
 *
 *     protected function setUp(): void { InMemoryBackend::reset(); }   // each test starts empty
 */
final class InMemoryBackend
{
    private static ?self $shared = null;
    /** ms the clock is ahead of the monotonic clock (advance()) */
    private int $skewMs = 0;
    /** @var array<string, array<string, array{until: int, count: int, n: int, context: ?\WeakReference}>>
     *  by slot (a kind of hold and its key), the holders by token: until when (our ms), their
     *  nested holds, how many permits, the Fiber that took it (null: the main flow) */
    private array $holders = [];
    /** @var array<string, int> the last fencing token of each slot */
    private array $fences = [];
    /** @var array<string, float> each rate limit's theoretical arrival time (our ms) */
    private array $tats = [];
    /** @var \WeakMap<object, true> the doubles with an onLost() callback */
    private \WeakMap $watched;

    public function __construct()
    {
        $this->watched = new \WeakMap();
    }

    /** The backend of every double not given one of its own. */
    public static function shared(): self
    {
        return self::$shared ??= new self();
    }

    /** A new shared backend: no holder, no fencing token, the clock not ahead. */
    public static function reset(): void
    {
        self::$shared = null;
    }

    /** Now, in ms of a monotonic clock. */
    public function now(): int
    {
        return intdiv(hrtime(true), 1000000) + $this->skewMs;
    }

    /** Let $ms pass: leases that end within them run out, without a sleep. */
    public function advance(int $ms): void
    {
        if ($ms < 0) {
            throw new \ValueError('InMemoryBackend::advance(): Argument #1 ($ms) must be greater than or equal to 0');
        }
        $this->skewMs += $ms;
        $this->tellLost();
    }

    /**
     * @internal the live holders of $slot: those whose lease ran out, or whose Fiber ended,
     * are gone
     * @return array<string, array{until: int, count: int, n: int, context: ?\WeakReference}>
     */
    public function holders(string $slot): array
    {
        $now = $this->now();
        foreach ($this->holders[$slot] ?? [] as $token => $h) {
            $fiber = $h['context']?->get();
            if ($h['until'] <= $now || ($h['context'] !== null && ($fiber === null || $fiber->isTerminated()))) {
                unset($this->holders[$slot][$token]);
            }
        }
        if (($this->holders[$slot] ?? null) === []) {
            unset($this->holders[$slot]);
        }
        return $this->holders[$slot] ?? [];
    }

    /**
     * @internal $token's hold of $slot, given or changed: until $untilMs, $count nested holds,
     * $n permits, taken in $context, with the fencing token $fence its acquire issued (null: none)
     */
    public function hold(string $slot, string $token, int $untilMs, int $count, int $n, ?\WeakReference $context,
        ?int $fence = null): void
    {
        $this->holders[$slot][$token] = ['until' => $untilMs, 'count' => $count, 'n' => $n, 'context' => $context,
            'fence' => $fence];
    }

    /** @internal $token's hold of $slot gone (every holder's when null); whether one lived */
    public function drop(string $slot, ?string $token = null): bool
    {
        $live = $this->holders($slot);
        if ($token === null) {
            unset($this->holders[$slot]);
            $this->tellLost();
            return $live !== [];
        }
        unset($this->holders[$slot][$token]);
        return isset($live[$token]);
    }

    /** @internal $double (InMemoryLock, InMemorySemaphore) is told of its losses from now on, or no more */
    public function watch(object $double, bool $on): void
    {
        if ($on) {
            $this->watched[$double] = true;
        } else {
            unset($this->watched[$double]);
        }
    }

    /** Each double whose hold is gone checks it (and calls its callback): a callback may watch others. */
    private function tellLost(): void
    {
        $doubles = [];
        foreach ($this->watched as $double => $_) {
            $doubles[] = $double;
        }
        foreach ($doubles as $double) {
            $double->tellLost();
        }
    }

    /** @internal the next fencing token of $slot ($next), or the last one (0: none yet) */
    public function fence(string $slot, bool $next): int
    {
        return $next ? $this->fences[$slot] = ($this->fences[$slot] ?? 0) + 1 : $this->fences[$slot] ?? 0;
    }

    /** @internal rate limit $slot's theoretical arrival time (our ms; null: none), set first when $tat is given */
    public function tat(string $slot, ?float $tat = null, bool $set = false): ?float
    {
        if ($set) {
            $this->tats[$slot] = $tat;
            if ($tat === null) {
                unset($this->tats[$slot]);
            }
        }
        return $this->tats[$slot] ?? null;
    }

    /** @internal the execution context now: the running Fiber, null for the main flow */
    public static function context(): ?\WeakReference
    {
        $fiber = \Fiber::getCurrent();
        return $fiber ? \WeakReference::create($fiber) : null;
    }

    /** @internal whether a hold taken in $context is the running context's */
    public static function ours(?\WeakReference $context): bool
    {
        return $context?->get() === \Fiber::getCurrent();
    }

    /** @internal a fresh owner token: 32 hex digits, as rlock's */
    public static function token(): string
    {
        return bin2hex(random_bytes(16));
    }

    /**
     * @internal synchronized() of the doubles, as rlock's: $fn($holder), then $giveBack();
     * its exception propagates (after the give-back); a give-back that finds the hold lost
     * throws RLockLostException carrying what $fn returned
     */
    public static function run(object $holder, callable $fn, \Closure $giveBack, string $lost): mixed
    {
        try {
            $result = $fn($holder);
        } catch (\Throwable $e) {
            $giveBack();
            throw $e;
        }
        if (!$giveBack()) {
            $e = new \RLockLostException($lost);
            (new \ReflectionProperty(\RLockLostException::class, 'result'))->setValue($e, $result);
            throw $e;
        }
        return $result;
    }
}
