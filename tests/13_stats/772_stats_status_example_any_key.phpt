--TEST--
The status example survives any key: status.php answers whole JSON and index.php shows the name, with binary keys, a key cut inside a character and control characters tracked
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
pcre.jit=0
rlock.stats_keys=16
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['reentrant' => false]);
foreach (["bin\xff\xfe", str_repeat('é', 150), "tab\tnul\0", 'plain'] as $k) {
    $l = new RLock($k, $o);
    $l->tryLock();
    $l->unlock();
}
ob_start();
require __DIR__ . '/../../examples/status/status.php';
$json = ob_get_clean();
$view = json_decode($json, true);
echo "status.php: JSON: ", var_export(is_array($view), true), ", keys: ", is_array($view) ? count($view['keys']) : 0, "\n";
ob_start();
require __DIR__ . '/../../examples/status/index.php';
$html = ob_get_clean();
// (make test loads no DOM extension) the cells of the keys' table
$table = substr($html, strpos($html, '<table id="keys">'));
$table = substr($table, 0, strpos($table, '</table>'));
preg_match_all('/<td class="key">(.*?)<\/td>/s', $table, $m);
$cells = array_map(fn ($c) => html_entity_decode($c, ENT_QUOTES | ENT_SUBSTITUTE | ENT_HTML5, 'UTF-8'), $m[1]);
echo "index.php: rows: ", count($cells), ", none empty: ", var_export(count(array_filter($cells, fn ($c) => $c === '')) === 0, true), "\n";
echo "binary escaped on the page: ", var_export(count(array_filter($cells, fn ($c) => str_contains($c, 'bin\xFF\xFE#'))) === 1, true), "\n";
?>
--EXPECT--
status.php: JSON: true, keys: 4
index.php: rows: 4, none empty: true
binary escaped on the page: true
