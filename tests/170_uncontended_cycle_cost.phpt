--TEST--
An uncontended lock + unlock costs Redis what SET NX PX and a compare-and-delete script cost: a SET, and a release script that runs two commands (it reads the key and the waiters' count in one MGET, and deletes)
--EXTENSIONS--
rlock
--SKIPIF--
<?php
require __DIR__ . '/skipif.inc';
exec('command -v redis-server', $out, $rc);
if ($rc !== 0) die('skip redis-server not installed');
?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$srv = rlock_test_own_server();
$o = ['server' => $srv['dsn']];

/* the calls of each command since the last CONFIG RESETSTAT, but these */
$calls = function () use ($srv): string {
    preg_match_all('/^cmdstat_(\w+):calls=(\d+)/m', ($srv['cmd'])('INFO', 'commandstats'), $m, PREG_SET_ORDER);
    $seen = [];
    foreach ($m as [, $cmd, $n]) {
        if (!in_array($cmd, ['info', 'config'], true)) {
            $seen[] = "$cmd=$n";
        }
    }
    sort($seen);
    return implode(' ', $seen);
};

$l = new RLock('k', $o);
var_dump($l->lock(), $l->unlock());   // the server learns the script
($srv['cmd'])('CONFIG', 'RESETSTAT');
$l = new RLock('k', $o);
var_dump($l->lock(), $l->unlock());
echo $calls(), "\n";
// with fencing, the acquire is the script; the release the same
$l = new RLock('k', $o + ['fencing' => true]);
var_dump($l->lock());
($srv['cmd'])('CONFIG', 'RESETSTAT');
var_dump($l->unlock());
echo $calls(), "\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
del=1 evalsha=1 mget=1 set=1
bool(true)
bool(true)
del=1 evalsha=1 mget=1
