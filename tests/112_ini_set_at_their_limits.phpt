--TEST--
ini_set() of every integer setting at its limits and in other notations: taken when a plain integer in range, else refused with a warning naming the range, and the old value stays
--EXTENSIONS--
rlock
--FILE--
<?php
set_error_handler(function ($no, $msg) { echo "  warning: $msg\n"; return true; });
$values = ['-1', '0', '1', '2147483647', '2147483648', '9223372036854775807', '18446744073709551615', 'abc', '1e3', '1k', '', '0x10'];
foreach (['rlock.ttl', 'rlock.wait', 'rlock.retry_delay', 'rlock.connect_timeout', 'rlock.read_timeout', 'rlock.sync_replicas'] as $name) {
    $ok = [];
    foreach ($values as $v) {
        $before = ini_get($name);
        ob_start();
        $r = ini_set($name, $v);
        $warning = ob_get_clean();
        if ($r !== false && ini_get($name) === $v) {
            $ok[] = "'$v'";
            ini_set($name, $before);
        } elseif ($r === false && ini_get($name) === $before) {
            $last = $warning;
        } else {
            echo "$name=$v: ini_set gave ", var_export($r, true), " and left ", ini_get($name), "\n";
        }
    }
    echo "$name takes ", implode(', ', $ok), "\n", $last;
}
?>
--EXPECT--
rlock.ttl takes '1', '2147483647'
  warning: ini_set(): Invalid rlock.ttl: it must be an integer between 1 and 2147483647
rlock.wait takes '0', '1', '2147483647'
  warning: ini_set(): Invalid rlock.wait: it must be an integer between 0 and 2147483647
rlock.retry_delay takes '1', '2147483647'
  warning: ini_set(): Invalid rlock.retry_delay: it must be an integer between 1 and 2147483647
rlock.connect_timeout takes '1', '2147483647'
  warning: ini_set(): Invalid rlock.connect_timeout: it must be an integer between 1 and 2147483647
rlock.read_timeout takes '1', '2147483647'
  warning: ini_set(): Invalid rlock.read_timeout: it must be an integer between 1 and 2147483647
rlock.sync_replicas takes '0', '1', '2147483647'
  warning: ini_set(): Invalid rlock.sync_replicas: it must be an integer between 0 and 2147483647
