--TEST--
Where a seconds value is as likely written, under 100 ms is a ValueError that says milliseconds: connect_timeout and read_timeout (phpredis' and Predis' timeouts are seconds); wait, retry_delay and lock($waitMs) take a few ms, which are meant there
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
foreach ([['connect_timeout' => 5], ['read_timeout' => 2], ['read_timeout' => 100, 'connect_timeout' => 100],
        ['wait' => 5], ['retry_delay' => 5]] as $options) {
    try {
        new RLock('k', rlock_test_options($options));
        echo json_encode($options), ": taken\n";
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
$l = new RLock('k', rlock_test_options());
var_dump($l->lock(5), $l->unlock());
?>
--EXPECT--
RLock::__construct(): Argument #2 ($options) option "connect_timeout" is in milliseconds and must be at least 100: 5 would be 5 ms (5 seconds is 5000)
RLock::__construct(): Argument #2 ($options) option "read_timeout" is in milliseconds and must be at least 100: 2 would be 2 ms (2 seconds is 2000)
{"read_timeout":100,"connect_timeout":100}: taken
{"wait":5}: taken
{"retry_delay":5}: taken
bool(true)
bool(true)
