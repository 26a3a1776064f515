--TEST--
RRateLimiter with "cluster": all() over limits whose keys do not share one slot is refused before anything is sent, naming them (one {hash tag} makes them share it); a name with "}" outside a hash tag is refused
--EXTENSIONS--
rlock
--FILE--
<?php
$o = ['cluster' => ['127.0.0.1:1', '127.0.0.1:2']];
$tries = [
    'no tag' => fn () => RRateLimiter::all([new RRateLimiter('buyer:1', 1, 1000, $o), new RRateLimiter('all', 100, 1000, $o)]),
    'two tags' => fn () => RRateLimiter::all([new RRateLimiter('{a}x', 1, 1000, $o), new RRateLimiter('{b}x', 1, 1000, $o)]),
    'a brace' => fn () => new RRateLimiter('a}b', 1, 1000, $o),
];
foreach ($tries as $what => $try) {
    try {
        $try();
        echo "$what: no error\n";
    } catch (Throwable $e) {
        echo "$what: ", get_class($e), ': ', $e->getMessage(), "\n";
    }
}
// one tag: sent (and the unreachable seeds say so)
try {
    RRateLimiter::all([new RRateLimiter('{sale}buyer:1', 1, 1000, $o), new RRateLimiter('{sale}all', 100, 1000, $o)]);
} catch (RLockConnectionException $e) {
    echo "one tag: sent\n";
}
?>
--EXPECT--
no tag: ValueError: RRateLimiter::all(): Argument #1 ($limiters) must name limits that one script can take together: "rlock:buyer:1" and "rlock:all" do not share one Cluster slot (give their names one {hash tag})
two tags: ValueError: RRateLimiter::all(): Argument #1 ($limiters) must name limits that one script can take together: "rlock:{a}x" and "rlock:{b}x" do not share one Cluster slot (give their names one {hash tag})
a brace: ValueError: RRateLimiter::__construct(): Argument #1 ($name) must not contain "}" outside a {hash tag} with the "cluster" option, or its key could not share a slot with others
one tag: sent
