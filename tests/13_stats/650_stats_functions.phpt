--TEST--
rlock_status(), rlock_metrics(), rlock_status_reset(): their signatures and the status array's shape
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
rlock.stats_keys=64
--FILE--
<?php
require __DIR__ . '/../config.inc';
foreach (['rlock_status', 'rlock_metrics', 'rlock_status_reset'] as $f) {
    $r = new ReflectionFunction($f);
    echo $f, '(', implode(', ', array_map(fn ($p) => $p->getType() . ' $' . $p->getName()
        . ($p->isOptional() ? ' = ' . var_export($p->getDefaultValue(), true) : ''), $r->getParameters())), '): ', $r->getReturnType(), "\n";
}
$l = new RLock('shape', rlock_test_options());
$l->lock(1000);
$l->unlock();

$s = rlock_status();
echo "top: ", implode(' ', array_keys($s)), "\n";
echo "table: ", implode(' ', array_keys($s['table'])), "\n";
echo "keys 64, 1 tracked: ", var_export($s['table']['keys'] === 64 && $s['table']['tracked'] === 1, true), "\n";
echo "wait: ", implode(' ', array_keys($s['wait'])), "\n";
echo "buckets: ", implode(' ', array_keys($s['wait']['buckets'])), "\n";
$server = RLOCK_TEST_HOST . ':' . RLOCK_TEST_PORT;
echo "server by host:port: ", var_export(array_keys($s['servers']) === [$server], true), "\n";
echo "server: ", implode(' ', array_keys($s['servers'][$server])), "\n";
echo "errors: ", implode(' ', array_keys($s['servers'][$server]['errors'])), "\n";
echo "key by its name: ", var_export(array_keys($s['keys']) === [$l->key()], true), "\n";
echo "key: ", implode(' ', array_keys($s['keys'][$l->key()])), "\n";
echo "other: ", implode(' ', array_keys($s['other'])), "\n";
echo "without keys: ", implode(' ', array_keys(rlock_status(false))), "\n";

$m = rlock_metrics();
echo "metrics end with a newline: ", var_export(str_ends_with($m, "\n"), true), "\n";
foreach (explode("\n", $m) as $line) {
    if (str_starts_with($line, '# TYPE ')) {
        echo substr($line, 7), "\n";
    }
}
try {
    rlock_status(keys: []);
} catch (TypeError $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
?>
--EXPECT--
rlock_status(bool $keys = true, ?string $pool = NULL): array
rlock_metrics(?string $pool = NULL): string
rlock_status_reset(): void
top: enabled table acquires contended waits timeouts lost renewals renewal_failures handovers wait holds waiters servers keys other ratelimit
table: keys bytes tracked evictions started reset
keys 64, 1 tracked: true
wait: count sum_ms p50_ms p99_ms max_ms buckets
buckets: 0.1 0.25 0.5 1 2.5 5 10 25 50 100 250 500 1000 2500 5000 10000 30000 60000 +Inf
server by host:port: true
server: commands errors reconnects rtt
errors: connection timeout auth reply
key by its name: true
key: kind acquires contended waits timeouts lost renewals renewal_failures handovers wait
other: acquires contended waits timeouts lost renewals renewal_failures handovers wait
without keys: enabled table acquires contended waits timeouts lost renewals renewal_failures handovers wait holds waiters servers ratelimit
metrics end with a newline: true
rlock_acquires_total counter
rlock_contended_total counter
rlock_waits_total counter
rlock_timeouts_total counter
rlock_lost_total counter
rlock_renewals_total counter
rlock_renewal_failures_total counter
rlock_handovers_total counter
rlock_wait_seconds histogram
rlock_holds gauge
rlock_waiters gauge
rlock_ratelimit_decisions_total counter
rlock_ratelimit_waits_total counter
rlock_ratelimit_wait_seconds_total counter
rlock_stats_keys gauge
rlock_stats_evictions_total counter
rlock_server_commands_total counter
rlock_server_errors_total counter
rlock_server_reconnects_total counter
rlock_server_rtt_seconds histogram
TypeError: rlock_status(): Argument #1 ($keys) must be of type bool, array given
