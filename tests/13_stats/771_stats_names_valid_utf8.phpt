--TEST--
Names are valid UTF-8 whatever the key: a long UTF-8 key cut on a character's boundary and marked as cut, binary bytes and control characters escaped as \xHH and marked by hash; rlock_status() encodes as JSON
--EXTENSIONS--
rlock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
rlock.stats_keys=16
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../config.inc';
$o = rlock_test_options(['reentrant' => false]);
$p = $o['prefix'];
// "é" is 2 bytes: the 200th byte of the name falls inside one, whatever the prefix's length parity
$long = str_repeat('é', 150);
$long2 = 'x' . str_repeat('é', 150);
$keys = ['long' => $long, 'long2' => $long2, 'binary' => "bin\xff\xfe\x00\x01end", 'truncated char' => "cut\xe2\x82", 'newline' => "new\nline",
    'emoji' => "ok \u{1F512}"];
foreach ($keys as $k) {
    $l = new RLock($k, $o);
    $l->tryLock();
    $l->unlock();
}
$s = rlock_status();
$names = array_map('strval', array_keys($s['keys']));
echo "every name valid UTF-8: ", var_export(count(array_filter($names, fn ($n) => preg_match('//u', $n) === 1)) === count($names), true), "\n";
echo "JSON: ", var_export(json_encode($s) !== false, true), "\n";
$by = [];
foreach ($keys as $what => $k) {
    foreach ($names as $n) {
        if (str_starts_with($n, $p . substr($k, 0, 3))) {
            $by[$what] = substr($n, strlen($p));
        }
    }
}
foreach (['long' => $long, 'long2' => $long2] as $what => $k) {
    preg_match('/^(.*)\.\.\.#[0-9a-f]{16}$/s', $by[$what] ?? '', $m);
    $kept = $m[1] ?? '';
    echo "$what: cut, marked: ", var_export($kept !== '', true), ", a prefix of the key: ", var_export(str_starts_with($k, $kept), true),
        ", whole characters: ", var_export(preg_match('//u', $kept) === 1 && strlen($p . $kept) <= 200 && strlen($p . $kept) >= 198, true), "\n";
}
echo "binary: ", preg_replace('/#[0-9a-f]{16}$/', '#HASH', $by['binary'] ?? '?'), "\n";
echo "truncated char: ", preg_replace('/#[0-9a-f]{16}$/', '#HASH', $by['truncated char'] ?? '?'), "\n";
echo "newline: ", preg_replace('/#[0-9a-f]{16}$/', '#HASH', $by['newline'] ?? '?'), "\n";
echo "emoji: ", $by['emoji'] ?? '?', "\n";
// an escaped name and a key that reads like it are told apart (by hash)
$l = new RLock('bin\xFF\xFE\x00\x01end', $o);
$l->tryLock();
$l->unlock();
echo "rows: ", count(rlock_status()['keys']), "\n";
?>
--EXPECT--
every name valid UTF-8: true
JSON: true
long: cut, marked: true, a prefix of the key: true, whole characters: true
long2: cut, marked: true, a prefix of the key: true, whole characters: true
binary: bin\xFF\xFE\x00\x01end#HASH
truncated char: cut\xE2\x82#HASH
newline: new\x0Aline#HASH
emoji: ok 🔒
rows: 7
