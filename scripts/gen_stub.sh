#!/usr/bin/env bash
# Regenerate rlock_arginfo.h from rlock.stub.php offline, with Debian's php-parser
# (gen_stub.php would otherwise try to download PHP-Parser).
# The stub's "@generate-legacy-arginfo 80100" makes gen_stub wrap what PHP 8.1 lacks
# (the #[\SensitiveParameter] registration) in #if (PHP_VERSION_ID >= 80200): no hand edits.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
gen=$(dirname "$(php-config --php-binary)")/../lib/php/$(basename "$(php-config --extension-dir)")/build/gen_stub.php
[ -f "$gen" ] || gen=/usr/lib/php/$(basename "$(php-config --extension-dir)")/build/gen_stub.php
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$gen" "$tmp/gen_stub.php"
mkdir -p "$tmp/PHP-Parser-4.15.1/lib"
ln -s /usr/share/php/PhpParser "$tmp/PHP-Parser-4.15.1/lib/PhpParser"
php "$tmp/gen_stub.php" "$repo/rlock.stub.php"
