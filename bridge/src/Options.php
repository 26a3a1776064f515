<?php

declare(strict_types=1);

namespace RLock\Bridge;

/**
 * The options of rlock's classes, as the extension's option table (src/core/options.c) takes them:
 * the one list the bridge's in-memory test doubles check options against and the stubs'
 * array shapes are made from (scripts/gen_bridge_stubs.php); a test holds it to the
 * extension's (tests/phpunit/BridgeStubsTest.php).
 */
final class Options
{
    /** Every option, name => its type (a PHPDoc type). */
    public const TYPES = [
        'server' => 'string', 'servers' => 'list<string>', 'cluster' => 'list<string>',
        'sentinel' => 'list<string>', 'service' => 'string',
        'ttl' => 'int', 'wait' => 'int', 'retry_delay' => 'int', 'prefix' => 'string',
        'connect_timeout' => 'int', 'read_timeout' => 'int', 'spin_us' => 'int', 'persistent' => 'bool', 'reentrant' => 'bool',
        'auto_release' => 'bool', 'fencing' => 'bool', 'fair' => 'bool', 'watchdog' => 'bool',
        'sync_replicas' => 'int', 'tls_ca' => 'string', 'tls_cert' => 'string', 'tls_key' => 'string',
        'tls_verify_peer' => 'bool', 'tls_server_name' => 'string',
    ];

    /** Durations in milliseconds that a value in seconds would be mistaken for: at least this. */
    public const MS_FLOOR = 100;
    public const MS_FLOORED = ['ttl', 'connect_timeout', 'read_timeout'];

    /** What each class (or static method) refuses of them. */
    public const REFUSED = [
        'RLock' => [],
        'RLock::multi' => ['servers', 'fencing', 'sync_replicas'],
        'RSemaphore' => ['servers', 'fencing'],
        'RReadWriteLock' => ['servers'],
        'RRateLimiter' => ['servers', 'ttl', 'reentrant', 'auto_release', 'fencing', 'watchdog', 'sync_replicas'],
    ];

    /** The options of a class' own, beside the connection options: class => [name => type]. */
    public const OWN = [
        'RRateLimiter' => ['burst' => 'int'],
    ];

    /** The options $of (a key of REFUSED) takes: name => type. */
    public static function of(string $of): array
    {
        return array_diff_key(self::TYPES, array_flip(self::REFUSED[$of])) + (self::OWN[$of] ?? []);
    }

    /**
     * $options checked as $of's constructor checks them (argument $arg of $fn): an unknown or
     * refused option is a ValueError, a value of another type a TypeError, both naming it;
     * values are what a parameter of the type takes in coercive mode (a numeric string is an int).
     */
    public static function check(array $options, string $of, string $fn, int $arg): array
    {
        $types = self::of($of);
        $where = "$fn(): Argument #$arg (\$options)";
        foreach ($options as $name => $value) {
            if (!isset(self::TYPES[$name]) && !isset($types[$name])) {
                throw new \ValueError("$where unknown option \"$name\"");
            }
            if (!isset($types[$name])) {
                throw new \ValueError("$where option \"$name\" is not supported by $of");
            }
            $options[$name] = match ($types[$name]) {
                'int' => is_int($value) ? $value : (is_numeric($value) && (int) $value == $value ? (int) $value : null),
                'bool' => is_scalar($value) ? (bool) $value : null,
                'string' => is_string($value) || is_int($value) || is_float($value) ? (string) $value : null,
                default => is_array($value) && array_filter($value, 'is_string') === $value ? array_values($value) : null,
            };
            if ($options[$name] === null) {
                throw new \TypeError("$where option \"$name\" must be of type {$types[$name]}, " . get_debug_type($value) . ' given');
            }
            if (in_array($name, self::MS_FLOORED, true)) {
                self::checkMs($options[$name], "$where option \"$name\"");
            }
        }
        return $options;
    }

    /** The longest lease or wait rlock takes, in milliseconds (2^31 - 1: 24.8 days). */
    public const MS_MAX = 2147483647;

    /**
     * A framework's duration in seconds as rlock's milliseconds: rounded up, at least $floor;
     * beyond MS_MAX an \InvalidArgumentException saying so in seconds ($what: what it is), never
     * a value wrapped or cut (a lease cut short stops excluding: 1e16 seconds became 100 ms).
     */
    public static function secondsToMs(mixed $seconds, string $what, int $floor = 0): int
    {
        if (!is_int($seconds) && !is_float($seconds)) {
            // (a framework's builder takes what it is given: a numeric string is a number)
            $seconds = is_numeric($seconds) ? +$seconds
                : throw new \TypeError(sprintf('%s must be a number of seconds, %s given', $what, get_debug_type($seconds)));
        }
        $ms = ceil($seconds * 1000);
        if (!($ms <= self::MS_MAX)) {  // (NAN too)
            throw new \InvalidArgumentException(sprintf('%s of %s seconds is longer than rlock takes: at most %d seconds'
                . ' (24.8 days)', $what, $seconds, intdiv(self::MS_MAX, 1000)));
        }
        return max($floor, (int) $ms);
    }

    /** A duration in milliseconds ($what: where it was given) under MS_FLOOR is a ValueError, as the extension's. */
    public static function checkMs(int $ms, string $what): void
    {
        if ($ms < self::MS_FLOOR) {
            throw new \ValueError("$what is in milliseconds and must be at least " . self::MS_FLOOR
                . ($ms > 0 ? ": $ms would be $ms ms ($ms seconds is " . $ms * 1000 . ')' : ''));
        }
    }
}
