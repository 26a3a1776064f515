--TEST--
RSemaphore: bad input is a ValueError naming the argument or option (permits < 1, n > permits, empty name, wait < 0, "servers", "fencing")
--EXTENSIONS--
rlock
--FILE--
<?php
$try = function (callable $f) {
    try {
        $f();
        echo "accepted\n";
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
};
$s = new RSemaphore('s', 3, ['server' => 'redis://127.0.0.1:1']);
$try(fn () => new RSemaphore('', 3));
$try(fn () => new RSemaphore('s', 0));
$try(fn () => new RSemaphore('s', -1));
$try(fn () => $s->acquire(0));
$try(fn () => $s->acquire(4));
$try(fn () => $s->tryAcquire(4));
$try(fn () => $s->acquire(1, -1));
$try(fn () => $s->synchronized(fn () => 1, 4));
$try(fn () => $s->extend(0));
$try(fn () => new RSemaphore('s', 3, ['fencing' => true]));
$try(fn () => new RSemaphore('s', 3, ['servers' => ['redis://127.0.0.1:1', 'redis://127.0.0.1:2', 'redis://127.0.0.1:3']]));
$try(fn () => new RSemaphore('s', 3, ['ttl' => 0]));
$try(fn () => new RSemaphore('s', 3, ['nope' => 1]));
?>
--EXPECT--
RSemaphore::__construct(): Argument #1 ($name) must not be empty
RSemaphore::__construct(): Argument #2 ($permits) must be between 1 and 2147483647
RSemaphore::__construct(): Argument #2 ($permits) must be between 1 and 2147483647
RSemaphore::acquire(): Argument #1 ($permits) must be between 1 and 3 (the semaphore's permits)
RSemaphore::acquire(): Argument #1 ($permits) must be between 1 and 3 (the semaphore's permits)
RSemaphore::tryAcquire(): Argument #1 ($permits) must be between 1 and 3 (the semaphore's permits)
RSemaphore::acquire(): Argument #2 ($waitMs) must be between 0 and 2147483647 (milliseconds)
RSemaphore::synchronized(): Argument #2 ($permits) must be between 1 and 3 (the semaphore's permits)
RSemaphore::extend(): Argument #1 ($ttlMs) must be between 100 and 2147483647 (milliseconds)
RSemaphore::__construct(): Argument #3 ($options) option "fencing" does not apply to a semaphore
RSemaphore::__construct(): Argument #3 ($options) option "servers" (Redlock) does not apply to a semaphore
RSemaphore::__construct(): Argument #3 ($options) option "ttl" must be between 100 and 2147483647 (milliseconds)
RSemaphore::__construct(): Argument #3 ($options) unknown option "nope"
