<?php

declare(strict_types=1);

namespace RLock\Bridge\Symfony;

use RLock\RateLimiterInterface;
use RRateLimiter;
use Symfony\Component\RateLimiter\LimiterInterface;
use Symfony\Component\RateLimiter\Policy\NoLimiter;

/**
 * symfony's RateLimiterFactory over rlock: the same configuration array (framework.rate_limiter's
 * id, policy, limit, interval, rate) and create($key), making RateLimiter objects over
 * RRateLimiter (the limit "$id-$key", as symfony names it) instead of a policy object over a
 * storage and a lock:
 *
 *     $factory = new RateLimiterFactory(['id' => 'api', 'policy' => 'token_bucket', 'limit' => 100,
 *         'rate' => ['interval' => '1 second', 'amount' => 10]], ['server' => 'redis://10.0.0.5:6379']);
 *     $factory->create($request->getClientIp())->consume()->isAccepted();
 *
 * Every policy becomes one GCRA limit: fixed_window and sliding_window admit `limit` per
 * `interval`, `limit` of them at once; token_bucket refills `rate.amount` per `rate.interval`
 * into a bucket of `limit` (the burst). No window edge lets twice the limit through, as a fixed
 * window does. no_limit is symfony's NoLimiter.
 */
final class RateLimiterFactory
{
    private array $config;
    private array $options;
    /** @var class-string<RateLimiterInterface> */
    private string $class;

    /**
     * @param array $options RRateLimiter's options (server, prefix, fair, ...)
     * @param class-string<RateLimiterInterface> $class the limiters' class: RRateLimiter, or a double
     *                                                 with its constructor (RLock\Bridge\Testing\InMemoryRateLimiter)
     */
    public function __construct(array $config, #[\SensitiveParameter] array $options = [], string $class = RRateLimiter::class)
    {
        $this->class = $class;
        foreach (['id', 'policy'] as $required) {
            if (!isset($config[$required])) {
                throw new \InvalidArgumentException("the rate limiter configuration has no \"$required\"");
            }
        }
        $policy = $config['policy'];
        if ($policy === 'no_limit') {
            $this->config = $config;
        } elseif ($policy === 'token_bucket') {
            $this->config = [$config['id'], $config['rate']['amount'] ?? 1, self::ms($config['rate']['interval'] ?? null, 'rate.interval'), $config['limit'] ?? null];
        } elseif ($policy === 'fixed_window' || $policy === 'sliding_window') {
            $this->config = [$config['id'], $config['limit'] ?? null, self::ms($config['interval'] ?? null, 'interval'), $config['limit'] ?? null];
        } else {
            throw new \LogicException(sprintf('Limiter policy "%s" does not exists, it must be either "token_bucket", "sliding_window", "fixed_window" or "no_limit".', $policy));
        }
        if ($policy !== 'no_limit' && !is_int($this->config[3])) {
            throw new \InvalidArgumentException('the rate limiter configuration has no int "limit"');
        }
        $this->options = $options;
    }

    public function create(?string $key = null): LimiterInterface
    {
        if (!isset($this->config[0])) {
            return new NoLimiter();
        }
        [$id, $limit, $periodMs, $burst] = $this->config;
        return new RateLimiter(new $this->class("$id-$key", $limit, $periodMs, ['burst' => $burst] + $this->options), $burst);
    }

    /** A symfony interval ("1 second", "15 minutes") in ms. */
    private static function ms(mixed $interval, string $what): int
    {
        try {
            // (PHP 8.3+ throws DateMalformedStringException, earlier ones warn and return false)
            $at = is_string($interval) ? @(new \DateTimeImmutable('@0'))->modify('+' . $interval) : false;
        } catch (\Exception) {
            $at = false;
        }
        if ($at === false || (float) $at->format('U.u') <= 0) {
            throw new \LogicException(sprintf('Cannot parse interval "%s" (%s), please use a valid unit as described on https://www.php.net/datetime.formats.relative.',
                is_string($interval) ? $interval : get_debug_type($interval), $what));
        }
        return (int) round((float) $at->format('U.u') * 1000);
    }
}
