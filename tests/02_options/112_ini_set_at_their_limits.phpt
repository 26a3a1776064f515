--TEST--
ini_set() of every integer setting at its limits and in other notations: a plain integer in range is taken; any other is kept as given, never read as another number, and the lock that would use it throws a ValueError naming the setting, its value and the range
--EXTENSIONS--
rlock
--FILE--
<?php
set_error_handler(function ($no, $msg) { echo "  warning: $msg\n"; return true; });
$values = ['-1', '0', '1', '99', '100', '2147483647', '2147483648', '9223372036854775807', '18446744073709551615', 'abc', '1e3', '1k', '', '0x10'];
foreach (['rlock.ttl', 'rlock.wait', 'rlock.retry_delay', 'rlock.connect_timeout', 'rlock.read_timeout', 'rlock.sync_replicas'] as $name) {
    $ok = [];
    $refused = [];
    foreach ($values as $v) {
        $before = ini_get($name);
        if (ini_set($name, $v) !== $before || ini_get($name) !== $v) {
            echo "$name=$v: ini_set() did not keep it\n";
        }
        try {
            new RLock('k');
            $ok[] = "'$v'";
        } catch (ValueError $e) {
            $refused[$v] = $e->getMessage();
        }
        ini_set($name, $before);
    }
    echo "$name takes ", implode(', ', $ok), "\n";
    foreach (['-1', '1', '2147483648', '1e3'] as $v) {
        if (isset($refused[$v])) {
            echo "  ", $refused[$v], "\n";
        }
    }
}
?>
--EXPECT--
rlock.ttl takes '100', '2147483647'
  php.ini setting rlock.ttl="-1" must be between 100 and 2147483647 (milliseconds)
  php.ini setting rlock.ttl="1" is in milliseconds and must be at least 100: 1 would be 1 ms (1 second is 1000)
  php.ini setting rlock.ttl="2147483648" must be between 100 and 2147483647 (milliseconds)
  php.ini setting rlock.ttl="1e3" must be an integer between 100 and 2147483647 (milliseconds)
rlock.wait takes '0', '1', '99', '100', '2147483647'
  php.ini setting rlock.wait="-1" must be between 0 and 2147483647 (milliseconds)
  php.ini setting rlock.wait="2147483648" must be between 0 and 2147483647 (milliseconds)
  php.ini setting rlock.wait="1e3" must be an integer between 0 and 2147483647 (milliseconds)
rlock.retry_delay takes '1', '99', '100', '2147483647'
  php.ini setting rlock.retry_delay="-1" must be between 1 and 2147483647 (milliseconds)
  php.ini setting rlock.retry_delay="2147483648" must be between 1 and 2147483647 (milliseconds)
  php.ini setting rlock.retry_delay="1e3" must be an integer between 1 and 2147483647 (milliseconds)
rlock.connect_timeout takes '100', '2147483647'
  php.ini setting rlock.connect_timeout="-1" must be between 100 and 2147483647 (milliseconds)
  php.ini setting rlock.connect_timeout="1" is in milliseconds and must be at least 100: 1 would be 1 ms (1 second is 1000)
  php.ini setting rlock.connect_timeout="2147483648" must be between 100 and 2147483647 (milliseconds)
  php.ini setting rlock.connect_timeout="1e3" must be an integer between 100 and 2147483647 (milliseconds)
rlock.read_timeout takes '100', '2147483647'
  php.ini setting rlock.read_timeout="-1" must be between 100 and 2147483647 (milliseconds)
  php.ini setting rlock.read_timeout="1" is in milliseconds and must be at least 100: 1 would be 1 ms (1 second is 1000)
  php.ini setting rlock.read_timeout="2147483648" must be between 100 and 2147483647 (milliseconds)
  php.ini setting rlock.read_timeout="1e3" must be an integer between 100 and 2147483647 (milliseconds)
rlock.sync_replicas takes '0', '1', '99', '100', '2147483647'
  php.ini setting rlock.sync_replicas="-1" must be between 0 and 2147483647
  php.ini setting rlock.sync_replicas="2147483648" must be between 0 and 2147483647
  php.ini setting rlock.sync_replicas="1e3" must be an integer between 0 and 2147483647
