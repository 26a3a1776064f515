--TEST--
phpinfo() counts a reconnect after the server dropped rlock's connection
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
function reconnects(): string {
    ob_start();
    phpinfo(INFO_MODULES);
    preg_match('/^Reconnects => (\d+)$/m', ob_get_clean(), $m);
    return ($m[1] ?? 'missing') . "\n";
}
function client_ids(): array {
    preg_match_all('/^id=(\d+) /m', rlock_test_cmd('CLIENT', 'LIST', 'TYPE', 'normal'), $m);
    return $m[1];
}
$before = client_ids();
$l = new RLock('rc', rlock_test_options());
var_dump($l->isLocked());
echo reconnects();
// the server drops the connection rlock opened
foreach (array_diff(client_ids(), $before) as $id) {
    rlock_test_cmd('CLIENT', 'KILL', 'ID', $id);
}
for ($i = 0; $i < 2; $i++) {
    try {
        if ($l->tryLock()) {
            break;
        }
    } catch (RLockConnectionException $e) {
        // an implementation may fail the call that finds the connection dead
    }
}
var_dump($l->isAcquired(), $l->unlock());
echo reconnects();
?>
--EXPECT--
bool(false)
0
bool(true)
bool(true)
1
