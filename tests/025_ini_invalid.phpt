--TEST--
Invalid php.ini values are refused with a warning (never showing a password) and the old value stays
--EXTENSIONS--
rlock
--INI--
rlock.ttl=-5
rlock.read_timeout=0
--FILE--
<?php
var_dump(ini_get('rlock.ttl'), ini_get('rlock.read_timeout'));
$cases = [
    ['rlock.ttl', '0'], ['rlock.ttl', '-1'], ['rlock.connect_timeout', '0'], ['rlock.read_timeout', '-3'],
    ['rlock.wait', '-1'], ['rlock.retry_delay', '-1'],
    ['rlock.server', 'redis://user:sekret@127.0.0.1:port'], ['rlock.server', 'localhost'],
    ['rlock.server', 'unix://relative'],
];
foreach ($cases as [$name, $value]) {
    $before = ini_get($name);
    $r = ini_set($name, $value);
    echo "$name=$value: ", var_export($r, true), ", kept: ", var_export(ini_get($name) === $before, true), "\n";
}
// the defaults still work
var_dump((new RLock('k'))->key());
?>
--EXPECTF--
%Astring(5) "30000"
string(4) "1000"

Warning: ini_set(): Invalid rlock.ttl: it must be an integer between 1 and 2147483647 in %s on line %d
rlock.ttl=0: false, kept: true

Warning: ini_set(): Invalid rlock.ttl: it must be an integer between 1 and 2147483647 in %s on line %d
rlock.ttl=-1: false, kept: true

Warning: ini_set(): Invalid rlock.connect_timeout: it must be an integer between 1 and 2147483647 in %s on line %d
rlock.connect_timeout=0: false, kept: true

Warning: ini_set(): Invalid rlock.read_timeout: it must be an integer between 1 and 2147483647 in %s on line %d
rlock.read_timeout=-3: false, kept: true

Warning: ini_set(): Invalid rlock.wait: it must be an integer between 0 and 2147483647 in %s on line %d
rlock.wait=-1: false, kept: true

Warning: ini_set(): Invalid rlock.retry_delay: it must be an integer between 1 and 2147483647 in %s on line %d
rlock.retry_delay=-1: false, kept: true

Warning: ini_set(): Invalid rlock.server: it has an invalid port: it must be between 1 and 65535 in %s on line %d
rlock.server=redis://user:sekret@127.0.0.1:port: false, kept: true

Warning: ini_set(): Invalid rlock.server: it must be redis://[user:pass@]host[:port][/db], rediss://... (TLS), tcp://host:port or unix:///path in %s on line %d
rlock.server=localhost: false, kept: true

Warning: ini_set(): Invalid rlock.server: it must name an absolute socket path, as unix:///path/to/redis.sock in %s on line %d
rlock.server=unix://relative: false, kept: true
string(7) "rlock:k"
