<?php

declare(strict_types=1);

namespace RLock\Bridge\Symfony;

use RLock\Bridge\Options;
use RLock\RateLimiterInterface;
use Symfony\Component\RateLimiter\Exception\MaxWaitDurationExceededException;
use Symfony\Component\RateLimiter\LimiterInterface;
use Symfony\Component\RateLimiter\RateLimit;
use Symfony\Component\RateLimiter\Reservation;

/**
 * A symfony/rate-limiter limiter over rlock's RRateLimiter (GCRA on the server's clock):
 * consume() is one script call, no lock and no serialized state around it, and no host's
 * clock in the decision; RateLimiterFactory (this namespace) makes them from symfony's configuration.
 *
 * reserve() sleeps in RRateLimiter::acquire() exactly until the tokens are due (woken on
 * the server's time, not a usleep computed from this host's clock) and returns a
 * Reservation that is due: its wait() returns at once, and the tokens are taken. A
 * reservation that would wait longer than $maxTime throws MaxWaitDurationExceededException
 * at once, taking nothing. With the limiter's `fair` option (RRateLimiter's default) the
 * tokens are reserved when reserve() asks, so waiters are served in the order they came.
 */
final class RateLimiter implements LimiterInterface
{
    private RateLimiterInterface $limiter;
    private int $burst;

    /**
     * @param RateLimiterInterface $limiter an RRateLimiter (or a double of one)
     * @param int $burst its burst: the most tokens one consume() or reserve() can take, and RateLimit::getLimit()
     */
    public function __construct(RateLimiterInterface $limiter, int $burst)
    {
        $this->limiter = $limiter;
        $this->burst = $burst;
    }

    public function reserve(int $tokens = 1, ?float $maxTime = null): Reservation
    {
        $this->checkTokens($tokens);
        if ($maxTime !== null && is_nan($maxTime)) {
            throw new \InvalidArgumentException('The maximum time of a reservation is NAN');
        }
        // rlock's longest wait: tokens are due within it (a limit's burst costs at most that), so a
        // $maxTime beyond is no bound, and one acquire() without $maxTime sleeps until they are due
        $maxMs = $maxTime === null || $maxTime * 1000 >= Options::MS_MAX ? Options::MS_MAX : max(0, (int) floor($maxTime * 1000));
        // refused at once when the tokens are not due within the wait (past rlock's longest: only
        // behind others' fair reservations, which acquire() asks for again when it refuses)
        while (!$this->limiter->acquire($tokens, $maxMs)) {
            if ($maxMs < Options::MS_MAX) {
                throw new MaxWaitDurationExceededException(sprintf('The rate limiter wait time ("%.3f" seconds) is longer than the provided maximum time ("%.3f" seconds).',
                    $this->limiter->retryAfter() / 1000, $maxTime), $this->rateLimit(false));
            }
            // due past the longest wait: sleep off the part beyond it, then ask again
            usleep(max(1, $this->limiter->retryAfter() - Options::MS_MAX) * 1000);
        }
        return new Reservation(microtime(true), $this->rateLimit(true));
    }

    public function consume(int $tokens = 1): RateLimit
    {
        $this->checkTokens($tokens);
        return $this->rateLimit($this->limiter->tryAcquire($tokens));
    }

    public function reset(): void
    {
        $this->limiter->reset();
    }

    /** The limiter this one runs on. */
    public function limiter(): RateLimiterInterface
    {
        return $this->limiter;
    }

    private function rateLimit(bool $accepted): RateLimit
    {
        $at = microtime(true) + ($accepted ? 0 : $this->limiter->retryAfter() / 1000);
        return new RemainingTokens($this->limiter, \DateTimeImmutable::createFromFormat('U.u', sprintf('%.6F', $at)),
            $accepted, $this->burst);
    }

    private function checkTokens(int $tokens): void
    {
        if ($tokens > $this->burst) {
            throw new \InvalidArgumentException(sprintf('Cannot reserve more tokens (%d) than the burst size of the rate limiter (%d).', $tokens, $this->burst));
        }
    }
}
