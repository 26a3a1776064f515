--TEST--
RSemaphore: synchronized() gives back only the permits it took; those the object held before stay held
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$s = new RSemaphore('sync', 5, rlock_test_options());
var_dump($s->acquire(1));
echo $s->synchronized(fn ($s) => "inside: held {$s->held()}, available {$s->available()}", 2), "\n";
echo "after: held {$s->held()}, available {$s->available()}\n";
try {
    $s->synchronized(function () { throw new RuntimeException('boom'); }, 3);
} catch (RuntimeException $e) {
    echo $e->getMessage(), ": held {$s->held()}, available {$s->available()}\n";
}
// $fn that takes more: those stay too
$s->synchronized(fn ($s) => $s->acquire(1), 2);
echo "fn took 1: held {$s->held()}, available {$s->available()}\n";
var_dump($s->release(), $s->held(), $s->available());
?>
--EXPECT--
bool(true)
inside: held 3, available 2
after: held 1, available 4
boom: held 1, available 4
fn took 1: held 2, available 3
bool(true)
int(0)
int(5)
