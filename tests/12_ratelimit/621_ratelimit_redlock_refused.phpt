--TEST--
RRateLimiter: Redlock ("servers", several masters as a quorum) is refused with a clear error: a rate is not a lock (so is "fencing", and the php.ini rlock.servers where the options name no server)
--EXTENSIONS--
rlock
--FILE--
<?php
$tries = [
    'servers' => fn () => new RRateLimiter('l', 10, 1000, ['servers' => ['redis://127.0.0.1:1', 'redis://127.0.0.1:2', 'redis://127.0.0.1:3']]),
    'fencing' => fn () => new RRateLimiter('l', 10, 1000, ['fencing' => true]),
    'rlock.servers' => function () {
        ini_set('rlock.servers', 'redis://127.0.0.1:1,redis://127.0.0.1:2,redis://127.0.0.1:3');
        return new RRateLimiter('l', 10, 1000);
    },
];
foreach ($tries as $what => $try) {
    try {
        $try();
        echo "$what: no error\n";
    } catch (Throwable $e) {
        echo "$what: ", get_class($e), ': ', $e->getMessage(), "\n";
    }
}
// a server named in the options wins over the php.ini list
var_dump(new RRateLimiter('l', 10, 1000, ['server' => 'redis://127.0.0.1:1']) instanceof RRateLimiter);
?>
--EXPECT--
servers: ValueError: RRateLimiter::__construct(): Argument #4 ($options) option "servers" (Redlock) does not apply to a rate limiter: a rate is not a lock, and a quorum of counts is no count (use "server", "cluster" or "sentinel")
fencing: ValueError: RRateLimiter::__construct(): Argument #4 ($options) option "fencing" does not apply to a rate limiter: it is a lock's, and a limiter holds nothing
rlock.servers: ValueError: RRateLimiter::__construct(): Argument #4 ($options) option "servers" (Redlock) does not apply to a rate limiter: a rate is not a lock, and a quorum of counts is no count (use "server", "cluster" or "sentinel")
bool(true)
