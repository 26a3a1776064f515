--TEST--
One rule for a wait, every primitive alike: 0 to 2147483647 ms (about 24.8 days); PHP_INT_MAX or 2147483648 is a ValueError naming the range (RLock lock/synchronized, RLock::multi, RSemaphore acquire/synchronized, RReadWriteLock's sides, the "wait" option), and the longest wait waits for the holder
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options();
$max = 2147483647;
// each: [take it with wait $w, hold it for 300 ms from another owner]
$rw = new RReadWriteLock('rw', $o);
$primitives = [
    'RLock::lock' => [fn ($w) => (new RLock('l', $o))->lock($w), fn () => rlock_test_cmd('SET', (new RLock('l', $o))->key(), 'other', 'PX', '300')],
    'RLock::synchronized' => [fn ($w) => (new RLock('l', $o))->synchronized(fn () => true, $w), fn () => rlock_test_cmd('SET', (new RLock('l', $o))->key(), 'other', 'PX', '300')],
    'RLock::multi' => [fn ($w) => RLock::multi(['m1', 'm2'], $o)->lock($w), fn () => rlock_test_cmd('SET', (new RLock('m2', $o))->key(), 'other', 'PX', '300')],
    'RSemaphore::acquire' => [fn ($w) => (new RSemaphore('s', 1, $o))->acquire(1, $w), fn () => (new RSemaphore('s', 1, ['ttl' => 300, 'auto_release' => false] + $o))->tryAcquire()],
    'RSemaphore::synchronized' => [fn ($w) => (new RSemaphore('s', 1, $o))->synchronized(fn () => true, 1, $w), fn () => (new RSemaphore('s', 1, ['ttl' => 300, 'auto_release' => false] + $o))->tryAcquire()],
    'readLock()->lock' => [fn ($w) => $rw->readLock()->lock($w) && $rw->readLock()->unlock(), fn () => (new RReadWriteLock('rw', ['ttl' => 300, 'auto_release' => false] + $o))->writeLock()->lock()],
    'writeLock()->synchronized' => [fn ($w) => $rw->writeLock()->synchronized(fn () => true, $w), fn () => (new RReadWriteLock('rw', ['ttl' => 300, 'auto_release' => false] + $o))->readLock()->lock()],
    'option wait' => [fn ($w) => (new RLock('l', ['wait' => $w] + $o))->lock(), fn () => rlock_test_cmd('SET', (new RLock('l', $o))->key(), 'other', 'PX', '300')],
    'RSemaphore option wait' => [fn ($w) => (new RSemaphore('s', 1, ['wait' => $w] + $o))->acquire(), fn () => (new RSemaphore('s', 1, ['ttl' => 300, 'auto_release' => false] + $o))->tryAcquire()],
];
foreach ($primitives as $name => [$take, $hold]) {
    $out = [];
    foreach ([PHP_INT_MAX, $max + 1] as $w) {
        try {
            $out[] = var_export($take($w), true);
        } catch (ValueError $e) {
            $out[] = 'ValueError: ' . $e->getMessage();
        }
    }
    // the longest wait is taken, and waits: true only once the other owner's 300 ms ended
    $held = $hold();
    $out[] = 'held by another ' . var_export((bool) $held, true) . ', then ' . var_export($take($max), true);
    echo "$name: ", implode("\n  ", array_unique($out)), "\n";
}
var_dump(rlock_test_cmd('KEYS', $o['prefix'] . '*'));
?>
--EXPECT--
RLock::lock: ValueError: RLock::lock(): Argument #1 ($waitMs) must be between 0 and 2147483647 (milliseconds)
  held by another true, then true
RLock::synchronized: ValueError: RLock::synchronized(): Argument #2 ($waitMs) must be between 0 and 2147483647 (milliseconds)
  held by another true, then true
RLock::multi: ValueError: RLock::lock(): Argument #1 ($waitMs) must be between 0 and 2147483647 (milliseconds)
  held by another true, then true
RSemaphore::acquire: ValueError: RSemaphore::acquire(): Argument #2 ($waitMs) must be between 0 and 2147483647 (milliseconds)
  held by another true, then true
RSemaphore::synchronized: ValueError: RSemaphore::synchronized(): Argument #3 ($waitMs) must be between 0 and 2147483647 (milliseconds)
  held by another true, then true
readLock()->lock: ValueError: RLock::lock(): Argument #1 ($waitMs) must be between 0 and 2147483647 (milliseconds)
  held by another true, then true
writeLock()->synchronized: ValueError: RLock::synchronized(): Argument #2 ($waitMs) must be between 0 and 2147483647 (milliseconds)
  held by another true, then true
option wait: ValueError: RLock::__construct(): Argument #2 ($options) option "wait" must be between 0 and 2147483647 (milliseconds)
  held by another true, then true
RSemaphore option wait: ValueError: RSemaphore::__construct(): Argument #3 ($options) option "wait" must be between 0 and 2147483647 (milliseconds)
  held by another true, then true
array(0) {
}
