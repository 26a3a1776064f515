<?php

declare(strict_types=1);

namespace RLock\Bridge\Symfony;

use RLock\RateLimiterInterface;
use Symfony\Component\RateLimiter\RateLimit;

/**
 * The RateLimit of RateLimiter's decisions: the tokens remaining are asked of Redis when
 * getRemainingTokens() is first called (the count then, not at the decision), so that a
 * decision whose caller never asks stays one round trip.
 */
final class RemainingTokens extends RateLimit
{
    private ?RateLimiterInterface $limiter;
    private int $remaining = 0;

    public function __construct(RateLimiterInterface $limiter, \DateTimeImmutable $retryAfter, bool $accepted, int $limit)
    {
        parent::__construct(0, $retryAfter, $accepted, $limit);
        $this->limiter = $limiter;
    }

    public function getRemainingTokens(): int
    {
        if ($this->limiter !== null) {
            $this->remaining = $this->limiter->remaining();
            $this->limiter = null;
        }
        return $this->remaining;
    }
}
