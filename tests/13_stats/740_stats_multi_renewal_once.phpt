--TEST--
Statistics count one renewal of RLock::multi() over 3 keys once under its key, not once per Redis key
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
rlock.stats_keys=16
--FILE--
<?php
require __DIR__ . '/../config.inc';
$slow = rlock_test_slow();
// renewed every 1 s (ttl / 3), its 3 keys in one batch: one renewal round, then let go
$m = RLock::multi(['a', 'b', 'c'], rlock_test_options(['ttl' => 3000 * $slow, 'watchdog' => true]));
var_dump($m->lock());
for ($deadline = microtime(true) + 20 * $slow; (current(rlock_status()['keys'])['renewals'] ?? 0) < 1; usleep(5000)) {
    if (microtime(true) > $deadline) {
        die("never renewed\n");
    }
}
var_dump($m->unlock());
$k = current(rlock_status()['keys']); // its one key: the lock over the 3
echo "{$k['kind']} renewals: {$k['renewals']}, acquires: {$k['acquires']}\n";
?>
--EXPECT--
bool(true)
bool(true)
multi renewals: 1, acquires: 1
