--TEST--
var_dump() and print_r() of an RLock show its key, whether this object holds it, whether it was found lost, the lease it asks (ttl) and its effective options (php.ini defaults included); never its token
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
rlock.wait=250
--FILE--
<?php
require __DIR__ . '/../config.inc';
$l = new RLock('k', ['server' => RLOCK_TEST_DSN . '/3', 'prefix' => 'dump:', 'ttl' => '7000']);
var_dump($l);
var_dump($l->lock());
ob_start();
print_r($l);
$out = ob_get_clean();
echo $out, "\n";
echo str_contains($out, $l->token()) ? "token shown\n" : "no token\n";
$l->unlock();
?>
--EXPECTF--
object(RLock)#%d (5) {
  ["key"]=>
  string(6) "dump:k"
  ["held"]=>
  bool(false)
  ["lost"]=>
  bool(false)
  ["ttl"]=>
  int(7000)
  ["options"]=>
  array(16) {
    ["server"]=>
    string(%d) "redis://%s:%d/3"
    ["sync_replicas"]=>
    int(0)
    ["ttl"]=>
    int(7000)
    ["wait"]=>
    int(250)
    ["retry_delay"]=>
    int(50)
    ["prefix"]=>
    string(5) "dump:"
    ["connect_timeout"]=>
    int(1000)
    ["read_timeout"]=>
    int(1000)
    ["spin_us"]=>
    int(100)
    ["persistent"]=>
    bool(true)
    ["reentrant"]=>
    bool(true)
    ["auto_release"]=>
    bool(true)
    ["fencing"]=>
    bool(false)
    ["fair"]=>
    bool(true)
    ["watchdog"]=>
    bool(false)
    ["tls_verify_peer"]=>
    bool(true)
  }
}
bool(true)
RLock Object
(
    [key] => dump:k
    [held] => 1
    [lost] => 
    [ttl] => 7000
    [options] => Array
        (
            [server] => redis://%s:%d/3
            [sync_replicas] => 0
            [ttl] => 7000
            [wait] => 250
            [retry_delay] => 50
            [prefix] => dump:
            [connect_timeout] => 1000
            [read_timeout] => 1000
            [spin_us] => 100
            [persistent] => 1
            [reentrant] => 1
            [auto_release] => 1
            [fencing] => 
            [fair] => 1
            [watchdog] => 
            [tls_verify_peer] => 1
        )

)

no token
