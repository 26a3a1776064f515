--TEST--
Options are made once per options array and reused, but never stale: a changed array (a write, a reference in it written through), another array, and a php.ini change each give the lock the options they name
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = ['server' => RLOCK_TEST_DSN, 'prefix' => 'a:'];
echo (new RLock('k', $o))->key(), ' ', (new RLock('k', $o))->key(), "\n";
$o['prefix'] = 'b:';                                  // a write: the array is copied
echo (new RLock('k', $o))->key(), "\n";
echo (new RLock('k', ['server' => RLOCK_TEST_DSN, 'prefix' => 'b:']))->key(), "\n";
echo (new RLock('k', ['server' => RLOCK_TEST_DSN, 'prefix' => 'c:']))->key(), "\n";
$p = 'd:';
$r = ['server' => RLOCK_TEST_DSN, 'prefix' => &$p];  // written through the reference
echo (new RLock('k', $r))->key(), ' ';
$p = 'e:';
echo (new RLock('k', $r))->key(), "\n";
$list = ['servers' => [RLOCK_TEST_DSN], 'prefix' => 'f:'];
echo (new RLock('k', $list))->key(), ' ';
$list['servers'][0] = 'redis://127.0.0.1:1';
try {
    var_dump((new RLock('k', $list + ['connect_timeout' => 200]))->tryLock());
} catch (RLockException $e) {
    echo "the new server: ", str_contains($e->getMessage(), '127.0.0.1:1') ? 'yes' : $e->getMessage(), "\n";
}
// no options: php.ini's, followed as they change
ini_set('rlock.server', RLOCK_TEST_DSN);
echo (new RLock('k'))->key(), ' ';
ini_set('rlock.prefix', 'g:');
echo (new RLock('k'))->key(), ' ';
echo (new RLock('k', ['server' => RLOCK_TEST_DSN]))->key(), ' ';
ini_set('rlock.prefix', 'h:');
echo (new RLock('k', ['server' => RLOCK_TEST_DSN]))->key(), "\n";
$t = ['server' => RLOCK_TEST_DSN, 'ttl' => 5000];
$l = new RLock('ttl', $t);
var_dump($l->lock(), $l->ttl() <= 5000, $l->unlock());
ini_set('rlock.fencing', '1');
$l = new RLock('ttl', $t);
var_dump($l->lock(), is_int($l->fencingToken()), $l->unlock());
// an options array that throws is not kept: the same array throws again
$bad = ['server' => RLOCK_TEST_DSN, 'ttl' => 0];
foreach ([1, 2] as $_) {
    try {
        new RLock('k', $bad);
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
a:k a:k
b:k
b:k
c:k
d:k e:k
f:k the new server: yes
rlock:k g:k g:k h:k
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
RLock::__construct(): Argument #2 ($options) option "ttl" must be between 100 and 2147483647 (milliseconds)
RLock::__construct(): Argument #2 ($options) option "ttl" must be between 100 and 2147483647 (milliseconds)
