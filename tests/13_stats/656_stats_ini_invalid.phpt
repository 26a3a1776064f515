--TEST--
An invalid rlock.stats_keys (not an integer, out of range, 2^64) warns once at startup, turns statistics off, and makes rlock_status(), rlock_metrics() and rlock_status_reset() throw naming it; locks work
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
rlock.stats_keys=abc
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
foreach (['rlock_status', 'rlock_metrics', 'rlock_status_reset'] as $f) {
    try {
        $f();
        echo "$f: no exception\n";
    } catch (ValueError $e) {
        echo "$f: ", $e->getMessage(), "\n";
    }
}
$l = new RLock('ini-invalid', rlock_test_options());
var_dump($l->lock(1000), $l->unlock());
echo "ini_set refused (startup only): ", var_export(ini_set('rlock.stats_keys', '10'), true), "\n";

// the same at other values, each in a php of its own
foreach (['-1', '65537', '18446744073709551615', '1e3', ' 5', ''] as $v) {
    $p = proc_open([PHP_BINARY, '-n', '-d', 'extension_dir=' . ini_get('extension_dir'), '-d', 'extension=rlock',
        '-d', "rlock.stats_keys=$v", '-d', 'display_startup_errors=1', '-d', 'error_reporting=-1',
        '-r', 'try { rlock_status(); echo "works\n"; } catch (ValueError $e) { echo $e->getMessage(), "\n"; }'],
        [['pipe', 'r'], ['pipe', 'w'], ['pipe', 'w']], $pipes);
    fclose($pipes[0]);
    $out = trim(stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]));
    proc_close($p);
    echo "\"$v\":\n  ", str_replace("\n", "\n  ", preg_replace('/^\s*(PHP )?Warning/m', 'Warning', $out)), "\n";
}
?>
--EXPECTF--
%AWarning: PHP Startup: php.ini setting rlock.stats_keys="abc" must be an integer between 0 and 65536; every call that uses it throws in Unknown on line 0
rlock_status: php.ini setting rlock.stats_keys="abc" must be an integer between 0 and 65536
rlock_metrics: php.ini setting rlock.stats_keys="abc" must be an integer between 0 and 65536
rlock_status_reset: php.ini setting rlock.stats_keys="abc" must be an integer between 0 and 65536
bool(true)
bool(true)
ini_set refused (startup only): false
"-1":
  %AWarning: PHP Startup: php.ini setting rlock.stats_keys="-1" must be between 0 and 65536; every call that uses it throws in Unknown on line 0%A
  php.ini setting rlock.stats_keys="-1" must be between 0 and 65536
"65537":
  %AWarning: PHP Startup: php.ini setting rlock.stats_keys="65537" must be between 0 and 65536; every call that uses it throws in Unknown on line 0%A
  php.ini setting rlock.stats_keys="65537" must be between 0 and 65536
"18446744073709551615":
  %AWarning: PHP Startup: php.ini setting rlock.stats_keys="18446744073709551615" must be between 0 and 65536; every call that uses it throws in Unknown on line 0%A
  php.ini setting rlock.stats_keys="18446744073709551615" must be between 0 and 65536
"1e3":
  %AWarning: PHP Startup: php.ini setting rlock.stats_keys="1e3" must be an integer between 0 and 65536; every call that uses it throws in Unknown on line 0%A
  php.ini setting rlock.stats_keys="1e3" must be an integer between 0 and 65536
" 5":
  %AWarning: PHP Startup: php.ini setting rlock.stats_keys=" 5" must be an integer between 0 and 65536; every call that uses it throws in Unknown on line 0%A
  php.ini setting rlock.stats_keys=" 5" must be an integer between 0 and 65536
"":
  %AWarning: PHP Startup: php.ini setting rlock.stats_keys="" must be an integer between 0 and 65536; every call that uses it throws in Unknown on line 0%A
  php.ini setting rlock.stats_keys="" must be an integer between 0 and 65536
