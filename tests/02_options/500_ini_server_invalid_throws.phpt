--TEST--
An invalid rlock.server in php.ini (no scheme) is never replaced by the default 127.0.0.1:6379: one warning at startup, then every call that would use it throws a ValueError naming the setting and its value (the password masked); options that give "server" are not affected
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
rlock.server=admin:Sup3rSecret@127.0.0.1:16383
--FILE--
<?php
require __DIR__ . '/../config.inc';
var_dump(ini_get('rlock.server') === 'admin:Sup3rSecret@127.0.0.1:16383');
$seen = '';
$calls = [
    'new RLock' => fn() => new RLock('k'),
    'RLock::release' => fn() => RLock::release('k', 'token'),
    'RLock::multi' => fn() => RLock::multi(['a', 'b']),
    'new RSemaphore' => fn() => new RSemaphore('s', 2),
    'new RReadWriteLock' => fn() => new RReadWriteLock('rw'),
    'options without "server"' => fn() => new RLock('k', ['ttl' => 5000, 'prefix' => 'p:']),
];
foreach ($calls as $what => $call) {
    try {
        $call();
        echo "$what: made\n";
    } catch (ValueError $e) {
        echo "$what: ", $e->getMessage(), "\n";
        $seen .= $e;
    }
}
// a call whose options name the server does not use the setting
$l = new RLock('k', rlock_test_options());
var_dump($l->lock(), $l->unlock());
$s = new RSemaphore('s', 2, rlock_test_options());
var_dump($s->acquire(), $s->release());
echo str_contains($seen, 'Sup3rSecret') ? "password shown\n" : "password masked\n";
?>
--EXPECTF--
%AWarning: PHP Startup: php.ini setting rlock.server="admin:***@127.0.0.1:16383" must be redis://[user:pass@]host[:port][/db], rediss://... (TLS), tcp://host:port or unix:///path; every call that uses it throws in Unknown on line 0
bool(true)
new RLock: php.ini setting rlock.server="admin:***@127.0.0.1:16383" must be redis://[user:pass@]host[:port][/db], rediss://... (TLS), tcp://host:port or unix:///path
RLock::release: php.ini setting rlock.server="admin:***@127.0.0.1:16383" must be redis://[user:pass@]host[:port][/db], rediss://... (TLS), tcp://host:port or unix:///path
RLock::multi: php.ini setting rlock.server="admin:***@127.0.0.1:16383" must be redis://[user:pass@]host[:port][/db], rediss://... (TLS), tcp://host:port or unix:///path
new RSemaphore: php.ini setting rlock.server="admin:***@127.0.0.1:16383" must be redis://[user:pass@]host[:port][/db], rediss://... (TLS), tcp://host:port or unix:///path
new RReadWriteLock: php.ini setting rlock.server="admin:***@127.0.0.1:16383" must be redis://[user:pass@]host[:port][/db], rediss://... (TLS), tcp://host:port or unix:///path
options without "server": php.ini setting rlock.server="admin:***@127.0.0.1:16383" must be redis://[user:pass@]host[:port][/db], rediss://... (TLS), tcp://host:port or unix:///path
bool(true)
bool(true)
bool(true)
bool(true)
password masked
