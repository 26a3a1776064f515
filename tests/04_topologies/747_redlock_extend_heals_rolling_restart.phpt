--TEST--
Redlock: extend() heals a master that lost the key (restarted without persistence: FLUSHALL here) while a quorum still holds it, so a rolling restart of all three masters, one after another, keeps the lock, and no other process gets it at any moment; a master where another token holds the key is never overwritten
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (!function_exists('pcntl_fork')) die('skip pcntl_fork not available'); ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$m = [rlock_test_own_server(), rlock_test_own_server(), rlock_test_own_server()];
$o = ['servers' => array_column($m, 'dsn'), 'ttl' => 20000 * rlock_test_slow(), 'prefix' => 'f747:'];
$holder = new RLock('k', $o);
var_dump($holder->lock());
$key = $holder->key();
$token = $holder->token();
$values = fn () => implode(' ', array_map(fn ($s) => $s['cmd']('GET', $key) === $token ? "'ours'" : var_export($s['cmd']('GET', $key), true), $m));

// another process tries to take the lock: 0 it could not
$other = function () use ($o): int {
    $pid = pcntl_fork();
    if ($pid === 0) {
        $l = new RLock('k', $o);
        exit($l->tryLock() ? 1 : 0);
    }
    pcntl_waitpid($pid, $status);
    return rlock_test_exit($status);
};

foreach (['A', 'B', 'C'] as $i => $name) {
    $m[$i]['cmd']('FLUSHALL');
    echo "$name restarted: ", $values(), "; another process got it: ", $other(), "\n";
    echo "  extend: ", var_export($holder->extend(), true), "; ", $values(), "; another process got it: ", $other(), "\n";
}
var_dump($holder->isAcquired(), $holder->lost());

// A loses the key, and another token lands there first: extend() keeps the lock on B and C,
// and leaves A's key alone
$m[0]['cmd']('SET', $key, 'another', 'PX', '60000');
echo "A taken by another: extend: ", var_export($holder->extend(), true), "; ", $values(), "\n";
var_dump($holder->unlock());
echo $values(), "\n";
?>
--EXPECT--
bool(true)
A restarted: NULL 'ours' 'ours'; another process got it: 0
  extend: true; 'ours' 'ours' 'ours'; another process got it: 0
B restarted: 'ours' NULL 'ours'; another process got it: 0
  extend: true; 'ours' 'ours' 'ours'; another process got it: 0
C restarted: 'ours' 'ours' NULL; another process got it: 0
  extend: true; 'ours' 'ours' 'ours'; another process got it: 0
bool(true)
bool(false)
A taken by another: extend: true; 'another' 'ours' 'ours'
bool(true)
'another' NULL NULL
