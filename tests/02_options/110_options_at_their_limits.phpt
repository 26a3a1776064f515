--TEST--
Every integer option at its limits (-1, 0, 1, max, max + 1, PHP_INT_MAX, PHP_INT_MIN): accepted, or a ValueError naming the option and its range
--EXTENSIONS--
rlock
--FILE--
<?php
$max = 2147483647;
$options = ['ttl', 'wait', 'retry_delay', 'connect_timeout', 'read_timeout', 'sync_replicas'];
foreach ($options as $name) {
    $out = [];
    foreach ([-1, 0, 1, $max, $max + 1, PHP_INT_MAX, PHP_INT_MIN] as $v) {
        try {
            new RLock('k', [$name => $v]);
            $out[] = "$v ok";
        } catch (ValueError $e) {
            $out[] = "$v refused";
            $message = $e->getMessage();
        }
    }
    echo "$name: ", implode(', ', $out), "\n  $message\n";
}
?>
--EXPECT--
ttl: -1 refused, 0 refused, 1 refused, 2147483647 ok, 2147483648 refused, 9223372036854775807 refused, -9223372036854775808 refused
  RLock::__construct(): Argument #2 ($options) option "ttl" must be between 100 and 2147483647 (milliseconds)
wait: -1 refused, 0 ok, 1 ok, 2147483647 ok, 2147483648 refused, 9223372036854775807 refused, -9223372036854775808 refused
  RLock::__construct(): Argument #2 ($options) option "wait" must be between 0 and 2147483647 (milliseconds)
retry_delay: -1 refused, 0 refused, 1 ok, 2147483647 ok, 2147483648 refused, 9223372036854775807 refused, -9223372036854775808 refused
  RLock::__construct(): Argument #2 ($options) option "retry_delay" must be between 1 and 2147483647 (milliseconds)
connect_timeout: -1 refused, 0 refused, 1 refused, 2147483647 ok, 2147483648 refused, 9223372036854775807 refused, -9223372036854775808 refused
  RLock::__construct(): Argument #2 ($options) option "connect_timeout" must be between 100 and 2147483647 (milliseconds)
read_timeout: -1 refused, 0 refused, 1 refused, 2147483647 ok, 2147483648 refused, 9223372036854775807 refused, -9223372036854775808 refused
  RLock::__construct(): Argument #2 ($options) option "read_timeout" must be between 100 and 2147483647 (milliseconds)
sync_replicas: -1 refused, 0 ok, 1 ok, 2147483647 ok, 2147483648 refused, 9223372036854775807 refused, -9223372036854775808 refused
  RLock::__construct(): Argument #2 ($options) option "sync_replicas" must be between 0 and 2147483647
