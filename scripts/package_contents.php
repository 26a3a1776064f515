<?php
// package.xml's <contents> from the tracked release files, by the release check's rule
// (scripts/release-check.sh, section 1): the sources and headers of the root and src/ (the
// Lua scripts too), the stub, config.m4, config.w32 and Makefile.frag as src; README.md,
// CHANGELOG.md, LICENSE, docs/*.md and examples/status/*.php (phpt 772's page) as doc; the phpt, .inc and .supp files of tests/ and its numbered folders and tls/
// as test. Rewrites package.xml in place; with --check only says whether it would change it.
//   php scripts/package_contents.php [--check]
declare(strict_types=1);

chdir(dirname(__DIR__));
$check = ($argv[1] ?? '') === '--check';
exec('git ls-files', $files, $rc);
$rc === 0 or exit("git ls-files failed\n");

function role(string $f): ?string
{
    if (preg_match('#^([^/]+|src/.+)\.[ch]$#', $f) || preg_match('#^src/.+\.lua$#', $f)
        || preg_match('#^(rlock\.stub\.php|config\.m4|config\.w32|Makefile\.frag)$#', $f)) {
        return 'src';
    }
    if (preg_match('#^(README\.md|CHANGELOG\.md|LICENSE)$#', $f) || preg_match('#^docs/[^/]+\.md$#', $f)
        || preg_match('#^examples/status/[^/]+\.php$#', $f)) {
        return 'doc';
    }
    if (preg_match('#^tests/([0-9]{2}_[^/]+/|tls/)?[^/]+\.(phpt|inc|supp)$#', $f)) {
        return 'test';
    }
    return null;
}

// a tree of dirs: ['' => [file => role], 'sub' => tree]
$tree = [];
foreach ($files as $f) {
    if (($role = role($f)) === null || !file_exists($f)) {
        continue;
    }
    $at = &$tree;
    $parts = explode('/', $f);
    $name = array_pop($parts);
    foreach ($parts as $d) {
        $at['dirs'][$d] ??= [];
        $at = &$at['dirs'][$d];
    }
    $at['files'][$name] = $role;
    unset($at);
}

function emit(array $t, string $pad): string
{
    $out = '';
    $files = $t['files'] ?? [];
    ksort($files, SORT_STRING);
    foreach ($files as $name => $role) {
        $out .= "$pad<file name=\"$name\" role=\"$role\" />\n";
    }
    $dirs = $t['dirs'] ?? [];
    ksort($dirs, SORT_STRING);
    foreach ($dirs as $name => $sub) {
        $out .= "$pad<dir name=\"$name\">\n" . emit($sub, "$pad ") . "$pad</dir>\n";
    }
    return $out;
}

$contents = " <contents>\n  <dir name=\"/\">\n" . emit($tree, '   ') . "  </dir>\n </contents>\n";
$xml = file_get_contents('package.xml');
$new = preg_replace('#^ <contents>\n.*?^ </contents>\n#ms', str_replace(['\\', '$'], ['\\\\', '\\$'], $contents), $xml, 1, $n);
$n === 1 or exit("package.xml: no <contents> block\n");
if ($check) {
    if ($new !== $xml) {
        fwrite(STDERR, "package.xml's <contents> is not what the tracked files make: php scripts/package_contents.php\n");
        exit(1);
    }
    exit(0);
}
if ($new !== $xml) {
    file_put_contents('package.xml', $new);
}
