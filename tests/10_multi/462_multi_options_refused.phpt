--TEST--
RLock::multi refuses the options it does not do with a ValueError naming the option: servers (Redlock), fencing, sync_replicas
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
foreach ([['servers' => [RLOCK_TEST_DSN, RLOCK_TEST_DSN . '/1', RLOCK_TEST_DSN . '/2']], ['fencing' => true], ['sync_replicas' => 1]] as $more) {
    try {
        RLock::multi(['a', 'b'], $more + (isset($more['servers']) ? [] : rlock_test_options()));
        echo "no error\n";
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
RLock::multi(): Argument #2 ($options) option "servers" is not supported by RLock::multi()
RLock::multi(): Argument #2 ($options) option "fencing" is not supported by RLock::multi()
RLock::multi(): Argument #2 ($options) option "sync_replicas" is not supported by RLock::multi()
