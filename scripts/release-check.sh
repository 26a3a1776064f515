#!/usr/bin/env bash
# Release check: what `pecl install rlock` gets is what the repository tests.
#   1. package.xml lists every tracked release file (sources and headers of the root and
#      src/ and its folders, the Lua scripts, stub, arginfo, config.m4, config.w32, README.md,
#      CHANGELOG.md, LICENSE, docs/*.md, the phpt, .inc and .supp of tests/, tests/NN_area/ and tests/tls/)
#      with its role, and nothing it lists is missing (scripts/package_contents.php writes it);
#   2. config.m4 and config.w32 build the same sources, and every tracked .c is built;
#   3. the version set in php_rlock.h (PHP_RLOCK_VERSION) is package.xml's release and the
#      top entry of CHANGELOG.md; composer.json is a php-ext package for PIE;
#   4. `pecl package` makes rlock-X.Y.Z.tgz from a copy of the listed files;
#   5. the tarball, unpacked, builds as pecl would build it (phpize, configure with the
#      configureoption's default, make), and the phpt suite passes against that module
#      loaded through an ini file (php -n -c rlock.ini), by scripts/test.sh's rule
#      (rlock_phpt_verdict: tests ran, none skipped, none passed only on a retry);
#      RLOCK_RELEASE_SAMPLE=N runs the first N phpt of each folder instead (scripts/test.sh's
#      plain run, which has run the whole suite on the same sources just before: what the
#      tarball's run adds is that every folder's files and includes came along);
#      The object files of that build have no loop of calls between source files and no call
#      up across the layers (scripts/layers.php);
#   6. `php --re rlock` shows every class, interface and method of the contract, with types, the API
#      reference (docs/reference.md) names every method, and phpversion('rlock') and phpinfo() show the version.
#   The Lua scripts: src/primitives/lua.h is what src/primitives/lua/ makes (scripts/gen_lua.php),
#   each script passes luac5.1 -p, and SCRIPT LOAD into the redis-server takes it (its SHA1 ours).
#   scripts/release-check.sh --quick   checks 1 to 3 and the Lua's text only (a few seconds, no build)
# Uses the redis-server at RLOCK_TEST_HOST:RLOCK_TEST_PORT (scripts/test.sh exports them),
# or starts one. RLOCK_RELEASE_KEEP=1 keeps the work directory (the tarball, the build).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
. scripts/lib/deps.sh

quick=0
[ "${1:-}" = --quick ] && quick=1
v=$(rlock_php)
# lua5.1: luac5.1 checks the scripts' syntax (5.1 is the Lua Redis embeds). faketime,
# prometheus (promtool) and valgrind (helgrind): the tarball's phpt suite runs phpt 622, 653
# and 742 with them, as scripts/test.sh installs them; without them those skip, and a skip
# fails the suite (rlock_phpt_verdict): run alone on a fresh machine the check failed so
phpt_tools=(faketime prometheus valgrind)
[ $quick = 0 ] || phpt_tools=()
rlock_install "php$v-dev" "php$v-cli" "php$v-xml" php-pear libhiredis-dev pkg-config redis-server redis-tools lua5.1 \
	"${phpt_tools[@]}"

status=0
fail() { echo "release-check: FAIL: $*" >&2; status=1; }
ok() { echo "release-check: ok: $*"; }

work=$(mktemp -d)
cleanup() {
	rlock_redis_stop "$work"
	if [ "${RLOCK_RELEASE_KEEP:-0}" = 1 ]; then echo "release-check: kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

# --- 1. package.xml <contents> against the tracked release files -------------------------
# "path role" for every tracked file that belongs in the release
git ls-files | awk '
	/^([^\/]+|src\/.+)\.[ch]$/ || /^src\/.+\.lua$/ || /^(rlock\.stub\.php|config\.m4|config\.w32|Makefile\.frag)$/ { print $0, "src"; next }
	/^(README\.md|CHANGELOG\.md|LICENSE)$/ || /^docs\/[^\/]+\.md$/ || /^examples\/status\/[^\/]+\.php$/ { print $0, "doc"; next }
	/^tests\/([0-9][0-9]_[^\/]+\/|tls\/)?[^\/]+\.(phpt|inc|supp)$/ { print $0, "test" }
' | sort > "$work/wanted"
# "path role" for every file package.xml lists (nested <dir>s joined)
php -r '
	$x = simplexml_load_file($argv[1]);
	if ($x === false) { fwrite(STDERR, "package.xml: not well-formed\n"); exit(1); }
	function walk(SimpleXMLElement $d, string $at): void {
		foreach ($d->children() as $c) {
			$n = ltrim($at . "/" . $c["name"], "/");
			if ($c->getName() === "dir") walk($c, $n);
			elseif ($c->getName() === "file") echo $n, " ", $c["role"], "\n";
		}
	}
	walk($x->contents->dir, "");
' package.xml | sort > "$work/listed"
missing=$(comm -23 "$work/wanted" "$work/listed")
extra=$(comm -13 "$work/wanted" "$work/listed")
[ -z "$missing" ] || fail "package.xml does not list (or lists with another role) these release files:
$(sed 's/^/    /' <<<"$missing")"
if [ -n "$extra" ]; then
	while read -r f role; do
		if [ ! -f "$f" ]; then fail "package.xml lists $f ($role), which does not exist"
		elif ! git ls-files --error-unmatch -- "$f" >/dev/null 2>&1; then fail "package.xml lists $f ($role), which git does not track"
		else fail "package.xml lists $f as $role, which is not a release file with that role"
		fi
	done <<<"$extra"
fi
[ -n "$missing$extra" ] || ok "package.xml lists the $(wc -l <"$work/wanted") release files, each with its role"

# --- 2. config.m4 and config.w32 build the same sources ----------------------------------
php -r '
	$m4 = file_get_contents("config.m4");
	preg_match("/PHP_NEW_EXTENSION\(\s*rlock\s*,\s*([^,]+),/", $m4, $m) or exit(1);
	$s = array_diff(preg_split("/\s+/", trim($m[1])), ["\\"]);
	sort($s);
	echo implode("\n", $s), "\n";
' > "$work/m4" || fail "config.m4: no PHP_NEW_EXTENSION(rlock, ...)"
php -r '
	$w = file_get_contents("config.w32");
	$s = [];
	preg_match("/EXTENSION\(\s*\"rlock\"\s*,\s*\"([^\"]*)\"/", $w, $m) or exit(1);
	foreach (preg_split("/\s+/", trim($m[1])) as $f) $s[] = $f;
	preg_match_all("/ADD_SOURCES\(\s*configure_module_dirname\s*(?:\+\s*\"((?:[^\"\\\\]|\\\\.)*)\")?\s*,\s*\"([^\"]*)\"\s*,\s*\"rlock\"/", $w, $mm, PREG_SET_ORDER);
	foreach ($mm as $a) {
		$dir = trim(preg_replace("#[\\\\/]+#", "/", $a[1] ?? ""), "/");
		foreach (preg_split("/\s+/", trim($a[2])) as $f) $s[] = ($dir === "" ? "" : "$dir/") . $f;
	}
	sort($s);
	echo implode("\n", $s), "\n";
' > "$work/w32" || fail "config.w32: no EXTENSION(\"rlock\", ...)"
git ls-files | grep -E '^([^/]+|src/.+)\.c$' | sort > "$work/csrc"
if ! diff -u "$work/m4" "$work/w32" >"$work/m4w32.diff"; then
	fail "config.m4 (-) and config.w32 (+) build different sources:
$(tail -n +3 "$work/m4w32.diff" | grep '^[-+]' | sed 's/^/    /')"
elif ! diff -u "$work/csrc" "$work/m4" >"$work/csrc.diff"; then
	fail "tracked .c files (-) and config.m4's sources (+) differ:
$(tail -n +3 "$work/csrc.diff" | grep '^[-+]' | sed 's/^/    /')"
else
	ok "config.m4 and config.w32 build the same $(wc -l <"$work/m4") sources, every tracked .c"
fi

# --- 3. one version: php_rlock.h, package.xml, CHANGELOG.md; composer.json ----------------
defs=$(git grep -n -E '^[[:space:]]*#[[:space:]]*define[[:space:]]+PHP_RLOCK_VERSION\b' -- '*.c' '*.h' || true)
if [ "$(grep -c . <<<"$defs")" != 1 ] || [ "${defs%%:*}" != php_rlock.h ]; then
	fail "PHP_RLOCK_VERSION must be defined once, in php_rlock.h; found:
$(sed 's/^/    /' <<<"$defs")"
fi
version=$(sed -n 's/^[[:space:]]*#[[:space:]]*define[[:space:]]\{1,\}PHP_RLOCK_VERSION[[:space:]]\{1,\}"\([^"]*\)".*/\1/p' php_rlock.h | head -1)
pkg_version=$(php -r '$x = simplexml_load_file("package.xml"); echo $x->version->release;')
pkg_date=$(php -r '$x = simplexml_load_file("package.xml"); echo $x->date;')
top=$(grep -m1 -E '^## ' CHANGELOG.md || true)
log_version=$(sed -E 's/^## +\[?v?([0-9][^] ]*)\]?.*/\1/' <<<"$top")
log_date=$(grep -oE '[0-9]{4}-[0-9]{2}-[0-9]{2}' <<<"$top" || true)
if [ -z "$version" ]; then
	fail "php_rlock.h: no PHP_RLOCK_VERSION \"X.Y.Z\""
elif [ "$version" != "$pkg_version" ] || [ "$version" != "$log_version" ]; then
	fail "versions differ: php_rlock.h $version, package.xml $pkg_version, CHANGELOG.md top entry '${top:-none}'"
elif [ -n "$log_date" ] && [ "$log_date" != "$pkg_date" ]; then
	fail "release dates differ: package.xml $pkg_date, CHANGELOG.md $log_date"
else
	ok "version $version in php_rlock.h, package.xml and CHANGELOG.md ($pkg_date)"
fi
php -r '
	$c = json_decode(file_get_contents("composer.json"), true);
	if (!is_array($c)) { fwrite(STDERR, "composer.json: not JSON\n"); exit(1); }
	$e = [];
	if (($c["type"] ?? "") !== "php-ext") $e[] = "type is not php-ext";
	if (($c["php-ext"]["extension-name"] ?? "") !== "rlock") $e[] = "php-ext.extension-name is not rlock";
	if (!in_array("with-hiredis", array_column($c["php-ext"]["configure-options"] ?? [], "name"), true)) $e[] = "no with-hiredis configure option";
	if ($e) { fwrite(STDERR, "composer.json: " . implode("; ", $e) . "\n"); exit(1); }
' && ok "composer.json: php-ext rlock, with-hiredis" || fail "composer.json is not a PIE package of rlock"

# the bridge's copies of the surface (stubs for IDEs and PHPStan, the polyfill) are what the stub makes
php scripts/gen_bridge_stubs.php --check && ok "bridge/stubs/rlock.php and bridge/polyfill.php match rlock.stub.php" \
	|| fail "bridge/stubs/rlock.php or bridge/polyfill.php is not what rlock.stub.php makes: php scripts/gen_bridge_stubs.php"

# the Lua scripts: the committed src/primitives/lua.h is what their .lua files make, and each
# script, as Redis gets it, is Lua 5.1 (luac5.1 -p; loaded into a real Redis below)
mkdir -p "$work/lua"
if ! php scripts/gen_lua.php --check; then
	fail "src/primitives/lua.h is not what src/primitives/lua/ makes: php scripts/gen_lua.php"
elif ! php scripts/gen_lua.php --dump "$work/lua"; then
	fail "scripts/gen_lua.php --dump failed"
else
	bad=()
	for f in "$work"/lua/*.lua; do
		luac5.1 -p -o /dev/null "$f" 2>"$work/luac.log" || bad+=("$(basename "$f"): $(cat "$work/luac.log")")
	done
	n=$(find "$work/lua" -name '*.lua' | wc -l)
	if [ ${#bad[@]} -gt 0 ]; then
		fail "Lua 5.1 refuses scripts:
$(printf '    %s\n' "${bad[@]}")"
	elif [ "$n" -lt 5 ]; then
		fail "only $n Lua scripts in src/primitives/lua"
	else
		ok "src/primitives/lua.h is what the $n scripts of src/primitives/lua/ make; luac5.1 -p takes each"
	fi
fi

if [ $quick = 1 ]; then
	[ $status -eq 0 ] && echo "release-check: quick checks passed" || echo "release-check: FAILED" >&2
	exit $status
fi

# --- 4. pecl package, from a copy holding only what package.xml lists --------------------
mkdir -p "$work/src"
cp package.xml "$work/src/"
cut -d' ' -f1 "$work/listed" | while read -r f; do
	[ -f "$f" ] && mkdir -p "$work/src/$(dirname "$f")" && cp "$f" "$work/src/$f"
done
if (cd "$work/src" && pecl package package.xml) >"$work/pecl-package.log" 2>&1 && [ -f "$work/src/rlock-$pkg_version.tgz" ]; then
	# a package.xml <date> that is not today is only a warning: a tagged release stays valid
	if grep -i -E 'warning|error' "$work/pecl-package.log" | grep -v -i 'is not today' >&2; then
		fail "pecl package warned (above)"
	fi
	tgz="$work/rlock-$pkg_version.tgz"
	mv "$work/src/rlock-$pkg_version.tgz" "$tgz"
	ok "pecl package: $(basename "$tgz"), $(stat -c %s "$tgz") bytes, $(tar -tzf "$tgz" | grep -vc '^package.xml$') files"
else
	cat "$work/pecl-package.log" >&2
	fail "pecl package failed"
	exit 1
fi

# --- 5. build the tarball as pecl install would, run the phpt suite against it -----------
mkdir -p "$work/build"
tar -xzf "$tgz" -C "$work/build"
build="$work/build/rlock-$pkg_version"
# pecl install: phpize, then configure with the configureoption's default (autodetect:
# a bare --with-hiredis, found with pkg-config); no --enable-rlock, as phpize builds need none
if ! (cd "$build" && phpize && ./configure --with-php-config="$(command -v php-config)" --with-hiredis && make -j"$(nproc)") >"$work/build.log" 2>&1; then
	tail -40 "$work/build.log" >&2
	fail "the tarball does not build (phpize, configure, make)"
	exit 1
fi
[ -f "$build/modules/rlock.so" ] || { fail "the tarball built no modules/rlock.so"; exit 1; }
ok "the tarball builds: phpize, configure --with-hiredis, make"
# the layers (docs/design.md): no loop of uses between source files, none upward, read from the
# symbols of the tarball's object files
if layers=$(php scripts/layers.php "$build" 2>&1); then
	ok "$layers"
else
	fail "the source's layers:
$(sed 's/^/    /' <<<"$layers")"
fi
cat >"$work/rlock.ini" <<EOF
; rlock as a user loads it: the installed module, through an ini file
extension_dir=$build/modules
extension=rlock.so
EOF
php_ini=(-n -c "$work/rlock.ini")

if [ -n "${RLOCK_TEST_PORT:-}" ] && redis-cli -h "${RLOCK_TEST_HOST:-127.0.0.1}" -p "$RLOCK_TEST_PORT" ping >/dev/null 2>&1; then
	export RLOCK_TEST_HOST=${RLOCK_TEST_HOST:-127.0.0.1}
else
	port=$(rlock_free_port)
	rlock_redis_start "$work" "$port"
	export RLOCK_TEST_HOST=127.0.0.1 RLOCK_TEST_PORT=$port
fi
# each script loads into Redis (compiled by the Lua Redis embeds), and its SHA1 is ours
loaded=0
for f in "$work"/lua/*.lua; do
	sha=$(redis-cli -h "$RLOCK_TEST_HOST" -p "$RLOCK_TEST_PORT" -x SCRIPT LOAD <"$f" 2>&1)
	if [ "$sha" = "$(sha1sum <"$f" | cut -d' ' -f1)" ]; then
		loaded=$((loaded + 1))
	else
		fail "SCRIPT LOAD of $(basename "$f"): $sha"
	fi
done
[ "$loaded" -eq 0 ] || ok "SCRIPT LOAD takes the $loaded scripts"
TEST_PHP_EXECUTABLE=$(command -v php)
export TEST_PHP_EXECUTABLE
phpt=(tests)
if [ -n "${RLOCK_RELEASE_SAMPLE:-}" ]; then
	phpt=()
	for d in "$build"/tests/*/; do
		mapfile -t -O "${#phpt[@]}" phpt < <(cd "$build" && ls "tests/$(basename "$d")"/*.phpt 2>/dev/null | head -n "$RLOCK_RELEASE_SAMPLE")
	done
fi
if ! (cd "$build" && NO_INTERACTION=1 REPORT_EXIT_STATUS=1 php "${php_ini[@]}" run-tests.php "${php_ini[@]}" \
		-q --show-diff --no-color "${phpt[@]}") >"$work/phpt.log" 2>&1; then
	cat "$work/phpt.log" >&2
	fail "the phpt suite fails against the built tarball"
elif ! rlock_phpt_verdict "$work/phpt.log"; then
	# the rule scripts/test.sh applies (deps.sh): tests ran, none skipped, none passed on a retry
	grep -E 'SKIP|WARN|retry' "$work/phpt.log" >&2 || true
	fail "the phpt suite against the built tarball ran nothing, skipped tests or passed some only on a retry"
else
	ok "phpt against the tarball's module: $(grep -E '^Tests passed' "$work/phpt.log" | tr -s ' ')"
fi

# --- 6. what users see: php --re, phpversion(), phpinfo(), the README API reference -------
re=$(php "${php_ini[@]}" --re rlock 2>&1) || true
missing=()
for c in RLock RSemaphore RRateLimiter RLockException RLockConnectionException RLockTimeoutException RLockLostException; do
	grep -qE "Class \[ <internal:rlock> .*class $c( |$)" <<<"$re" || missing+=("class $c")
done
for i in LockInterface SemaphoreInterface ReadWriteLockInterface RateLimiterInterface; do
	grep -qE "Interface \[ <internal:rlock> interface RLock\\\\$i " <<<"$re" || missing+=("interface RLock\\$i")
done
for m in __construct lock tryLock unlock extend restore forceUnlock synchronized isLocked isAcquired ttl token fencingToken key lost release; do
	grep -qE "Method \[ <internal:rlock.*method $m \]" <<<"$re" || missing+=("RLock::$m")
done
grep -qE "Method \[ <internal:rlock.*method getResult \]" <<<"$re" || missing+=("RLockLostException::getResult")
for m in acquire tryAcquire held available; do
	grep -qE "Method \[ <internal:rlock.*method $m \]" <<<"$re" || missing+=("RSemaphore::$m")
done
grep -qE 'Class \[ <internal:rlock> final class RSemaphore ' <<<"$re" || missing+=("RSemaphore is not final")
for m in retryAfter remaining reset all; do
	grep -qE "Method \[ <internal:rlock.*method $m \]" <<<"$re" || missing+=("RRateLimiter::$m")
done
grep -qE 'Class \[ <internal:rlock> final class RRateLimiter ' <<<"$re" || missing+=("RRateLimiter is not final")
grep -qE 'static public method release|public static method release' <<<"$re" || missing+=("RLock::release is not static")
grep -qE 'Class \[ <internal:rlock> final class RLock ' <<<"$re" || missing+=("RLock is not final")
# every method but the constructor declares its return type
untyped=$(php "${php_ini[@]}" -r '
	foreach (["RLock", "RSemaphore", "RRateLimiter", "RLockLostException"] as $c) foreach ((new ReflectionClass($c))->getMethods() as $m)
		if ($m->getDeclaringClass()->getName() === $c && $m->getName() !== "__construct" && !$m->hasReturnType()) echo "$c::", $m->getName(), " ";
')
[ -z "$untyped" ] || missing+=("no return type: $untyped")
if [ ${#missing[@]} -eq 0 ]; then
	ok "php --re rlock shows the contract's 7 classes, 4 interfaces and 29 methods, typed"
else
	fail "php --re rlock: ${missing[*]}"
fi
# the API reference (docs/reference.md: ## The API, ## RSemaphore, ## RRateLimiter) names every public method
readme_missing=$(php "${php_ini[@]}" -r '
	$r = file_get_contents($argv[1]);
	foreach (["RLock" => "The API", "RLockLostException" => "The API", "RSemaphore" => "RSemaphore", "RRateLimiter" => "RRateLimiter"] as $c => $h) {
		preg_match("/^##+ $h\\b[^\n]*\n(.*?)^#/ms", $r, $m) or exit(print("no \"## $h\" section"));
		foreach ((new ReflectionClass($c))->getMethods(ReflectionMethod::IS_PUBLIC) as $f)
			if ($f->getDeclaringClass()->getName() === $c && !preg_match("/function " . $f->getName() . "\(/", $m[1])) echo "$c::", $f->getName(), " ";
	}
' docs/reference.md || true)
[ -z "$readme_missing" ] && ok "docs/reference.md's API reference names every method" || fail "docs/reference.md's API reference lacks: $readme_missing"
loaded=$(php "${php_ini[@]}" -r 'echo phpversion("rlock");' 2>&1 || true)
info=$(php "${php_ini[@]}" --ri rlock 2>&1 || true)
if [ "$loaded" = "$version" ] && grep -qE "^[Vv]ersion => $version\$" <<<"$info"; then
	ok "phpversion('rlock') and phpinfo() say $version"
else
	fail "phpversion('rlock') says '$loaded', phpinfo() says '$(grep -iE '^version' <<<"$info")', php_rlock.h says $version"
fi

[ $status -eq 0 ] && echo "release-check: rlock-$pkg_version.tgz is ready" || echo "release-check: FAILED" >&2
exit $status
