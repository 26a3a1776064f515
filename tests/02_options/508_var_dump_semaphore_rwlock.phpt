--TEST--
var_dump() and print_r() of an RSemaphore show its name, its permits, those this object holds, the lease and the options; of an RReadWriteLock its key, which side this object holds, the lease and the options
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
// the top of a dump, without its options
function top(object $o): string
{
    ob_start();
    print_r($o);
    return preg_replace('/\s*\[options\].*/s', '', ob_get_clean()) . "\n";
}
$options = ['server' => RLOCK_TEST_DSN, 'prefix' => 'dump:', 'ttl' => 9000];
$s = new RSemaphore('pool', 3, $options);
echo top($s);
$s->acquire(2);
echo top($s);
$s->release();

$rw = new RReadWriteLock('stock', $options);
echo top($rw);
$rw->readLock()->lock();
echo top($rw);
$rw->readLock()->unlock();
$rw->writeLock()->lock();
echo top($rw);
$rw->writeLock()->unlock();
ob_start();
var_dump($rw);
echo preg_match('/\["options"\]=>\s+array\(16\)/', ob_get_clean()) ? "options shown\n" : "no options\n";
?>
--EXPECT--
RSemaphore Object
(
    [name] => dump:pool
    [permits] => 3
    [held] => 0
    [ttl] => 9000
RSemaphore Object
(
    [name] => dump:pool
    [permits] => 3
    [held] => 2
    [ttl] => 9000
RReadWriteLock Object
(
    [key] => dump:stock
    [read_held] => 
    [write_held] => 
    [ttl] => 9000
RReadWriteLock Object
(
    [key] => dump:stock
    [read_held] => 1
    [write_held] => 
    [ttl] => 9000
RReadWriteLock Object
(
    [key] => dump:stock
    [read_held] => 
    [write_held] => 1
    [ttl] => 9000
options shown
