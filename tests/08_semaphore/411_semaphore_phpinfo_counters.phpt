--TEST--
RSemaphore counts in phpinfo()'s counters: acquires, acquires that waited, waits that timed out
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$counters = function (): array {
    ob_start();
    phpinfo(INFO_MODULES);
    $info = ob_get_clean();
    $out = [];
    foreach (['Locks acquired', 'Acquires that waited', 'Waits that timed out'] as $row) {
        $at = strpos($info, "$row => ");
        $out[] = (int) substr($info, $at + strlen("$row => "));
    }
    return $out;
};
$before = $counters();
$o = rlock_test_options();
$a = new RSemaphore('info', 2, $o);
$b = new RSemaphore('info', 2, $o);
$a->acquire(2);
$b->acquire(1, 20);
$a->release();
$b->acquire(1);
$after = $counters();
echo json_encode(array_map(fn ($x, $y) => $y - $x, $before, $after)), "\n";
?>
--EXPECT--
[2,1,1]
