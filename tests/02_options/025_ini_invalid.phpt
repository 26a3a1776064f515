--TEST--
Invalid php.ini values, at startup or by ini_set(), are kept as given and never replaced by the default: one warning at startup, and every lock that would use one throws a ValueError naming the setting and its value (a password masked)
--EXTENSIONS--
rlock
--INI--
rlock.ttl=-5
rlock.read_timeout=0
--FILE--
<?php
function attempt(): void
{
    try {
        new RLock('k');
        echo "  a lock: made\n";
    } catch (ValueError $e) {
        echo "  a lock: ", $e->getMessage(), "\n";
    }
}
var_dump(ini_get('rlock.ttl'), ini_get('rlock.read_timeout'));
attempt();
ini_set('rlock.ttl', '30000');
attempt();
ini_set('rlock.read_timeout', '1000');
attempt();
$cases = [
    ['rlock.ttl', '0'], ['rlock.ttl', '-1'], ['rlock.connect_timeout', '0'], ['rlock.read_timeout', '-3'],
    ['rlock.wait', '-1'], ['rlock.retry_delay', '-1'], ['rlock.fair', 'maybe'],
    ['rlock.server', 'redis://user:sekret@127.0.0.1:port'], ['rlock.server', 'localhost'],
    ['rlock.server', 'unix://relative'],
];
foreach ($cases as [$name, $value]) {
    $before = ini_get($name);
    $r = ini_set($name, $value);
    echo "$name=$value: ini_set() gave the old value: ", var_export($r === $before, true),
        ", kept as given: ", var_export(ini_get($name) === $value, true), "\n";
    attempt();
    ini_set($name, $before);
}
attempt();
?>
--EXPECTF--
%AWarning: PHP Startup: php.ini setting rlock.ttl="-5" must be between 100 and 2147483647 (milliseconds); every call that uses it throws in Unknown on line 0
%AWarning: PHP Startup: php.ini setting rlock.read_timeout="0" must be between 100 and 2147483647 (milliseconds); every call that uses it throws in Unknown on line 0
string(2) "-5"
string(1) "0"
  a lock: php.ini setting rlock.ttl="-5" must be between 100 and 2147483647 (milliseconds)
  a lock: php.ini setting rlock.read_timeout="0" must be between 100 and 2147483647 (milliseconds)
  a lock: made
rlock.ttl=0: ini_set() gave the old value: true, kept as given: true
  a lock: php.ini setting rlock.ttl="0" must be between 100 and 2147483647 (milliseconds)
rlock.ttl=-1: ini_set() gave the old value: true, kept as given: true
  a lock: php.ini setting rlock.ttl="-1" must be between 100 and 2147483647 (milliseconds)
rlock.connect_timeout=0: ini_set() gave the old value: true, kept as given: true
  a lock: php.ini setting rlock.connect_timeout="0" must be between 100 and 2147483647 (milliseconds)
rlock.read_timeout=-3: ini_set() gave the old value: true, kept as given: true
  a lock: php.ini setting rlock.read_timeout="-3" must be between 100 and 2147483647 (milliseconds)
rlock.wait=-1: ini_set() gave the old value: true, kept as given: true
  a lock: php.ini setting rlock.wait="-1" must be between 0 and 2147483647 (milliseconds)
rlock.retry_delay=-1: ini_set() gave the old value: true, kept as given: true
  a lock: php.ini setting rlock.retry_delay="-1" must be between 1 and 2147483647 (milliseconds)
rlock.fair=maybe: ini_set() gave the old value: true, kept as given: true
  a lock: php.ini setting rlock.fair="maybe" must be a bool: On, Off, 1, 0, yes, no, true or false
rlock.server=redis://user:sekret@127.0.0.1:port: ini_set() gave the old value: true, kept as given: true
  a lock: php.ini setting rlock.server="redis://***@127.0.0.1:port" has an invalid port: it must be between 1 and 65535
rlock.server=localhost: ini_set() gave the old value: true, kept as given: true
  a lock: php.ini setting rlock.server="localhost" must be redis://[user:pass@]host[:port][/db], rediss://... (TLS), tcp://host:port or unix:///path
rlock.server=unix://relative: ini_set() gave the old value: true, kept as given: true
  a lock: php.ini setting rlock.server="unix://relative" must name an absolute socket path, as unix:///path/to/redis.sock
  a lock: made
