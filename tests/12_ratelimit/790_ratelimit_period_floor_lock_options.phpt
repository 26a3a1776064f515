--TEST--
RRateLimiter: a period under 100 ms is a ValueError that says milliseconds (seconds meant), as ttl's; the lock's options a limiter has no use for (ttl, watchdog, reentrant, auto_release, fencing, sync_replicas) are a ValueError naming each when given, never when php.ini sets them (nor a semaphore's "fencing"), and var_dump() leaves them out
--EXTENSIONS--
rlock
--FILE--
<?php
$o = ['server' => 'redis://127.0.0.1:1'];
$tries = [
    'period 60 (seconds meant)' => fn () => new RRateLimiter('api', 5, 60, $o),
    'period 1' => fn () => new RRateLimiter('api', 5, 1, $o),
    'period 99' => fn () => new RRateLimiter('api', 5, 99, $o),
    'period 0' => fn () => new RRateLimiter('api', 5, 0, $o),
];
foreach (['ttl' => 5000, 'watchdog' => true, 'reentrant' => false, 'auto_release' => false, 'fencing' => true,
        'sync_replicas' => 1] as $name => $value) {
    $tries[$name] = fn () => new RRateLimiter('api', 5, 1000, $o + [$name => $value]);
}
foreach ($tries as $what => $try) {
    try {
        $try();
        echo "$what: no error\n";
    } catch (Throwable $e) {
        echo "$what: ", get_class($e), ': ', $e->getMessage(), "\n";
    }
}
echo "period 100: ", get_class(new RRateLimiter('api', 5, 100, $o)), "\n";
// php.ini defaults of the lock options are a lock's: a limiter is made all the same
foreach (['rlock.ttl' => '60000', 'rlock.watchdog' => '1', 'rlock.reentrant' => '0', 'rlock.auto_release' => '0',
        'rlock.fencing' => '1', 'rlock.sync_replicas' => '1'] as $ini => $value) {
    ini_set($ini, $value);
}
var_dump(new RRateLimiter('api', 5, 60000, $o + ['wait' => 250, 'burst' => 2]));
// so is a semaphore (a permit has no fencing token either), refusing "fencing" only as asked
echo "semaphore under rlock.fencing=1: ", get_class(new RSemaphore('pool', 2, $o)), "\n";
try {
    new RSemaphore('pool', 2, $o + ['fencing' => true]);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECTF--
period 60 (seconds meant): ValueError: RRateLimiter::__construct(): Argument #3 ($periodMs) is in milliseconds and must be at least 100: 60 would be 60 ms (60 seconds is 60000)
period 1: ValueError: RRateLimiter::__construct(): Argument #3 ($periodMs) is in milliseconds and must be at least 100: 1 would be 1 ms (1 second is 1000)
period 99: ValueError: RRateLimiter::__construct(): Argument #3 ($periodMs) is in milliseconds and must be at least 100: 99 would be 99 ms (99 seconds is 99000)
period 0: ValueError: RRateLimiter::__construct(): Argument #3 ($periodMs) must be between 100 and 2147483647 (milliseconds)
ttl: ValueError: RRateLimiter::__construct(): Argument #4 ($options) option "ttl" does not apply to a rate limiter: it is a lock's, and a limiter holds nothing
watchdog: ValueError: RRateLimiter::__construct(): Argument #4 ($options) option "watchdog" does not apply to a rate limiter: it is a lock's, and a limiter holds nothing
reentrant: ValueError: RRateLimiter::__construct(): Argument #4 ($options) option "reentrant" does not apply to a rate limiter: it is a lock's, and a limiter holds nothing
auto_release: ValueError: RRateLimiter::__construct(): Argument #4 ($options) option "auto_release" does not apply to a rate limiter: it is a lock's, and a limiter holds nothing
fencing: ValueError: RRateLimiter::__construct(): Argument #4 ($options) option "fencing" does not apply to a rate limiter: it is a lock's, and a limiter holds nothing
sync_replicas: ValueError: RRateLimiter::__construct(): Argument #4 ($options) option "sync_replicas" does not apply to a rate limiter: it is a lock's, and a limiter holds nothing
period 100: RRateLimiter
object(RRateLimiter)#%d (5) {
  ["name"]=>
  string(9) "rlock:api"
  ["limit"]=>
  int(5)
  ["period_ms"]=>
  int(60000)
  ["burst"]=>
  int(2)
  ["options"]=>
  array(10) {
    ["server"]=>
    string(19) "redis://127.0.0.1:1"
    ["wait"]=>
    int(250)
    ["retry_delay"]=>
    int(50)
    ["prefix"]=>
    string(6) "rlock:"
    ["connect_timeout"]=>
    int(1000)
    ["read_timeout"]=>
    int(1000)
    ["spin_us"]=>
    int(100)
    ["persistent"]=>
    bool(true)
    ["fair"]=>
    bool(true)
    ["tls_verify_peer"]=>
    bool(true)
  }
}
semaphore under rlock.fencing=1: RSemaphore
RSemaphore::__construct(): Argument #3 ($options) option "fencing" does not apply to a semaphore
