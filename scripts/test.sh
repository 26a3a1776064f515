#!/usr/bin/env bash
# Build rlock and run its tests against a redis-server of its own.
#   scripts/test.sh             phpt suite (make test) and PHPUnit scenarios
#   scripts/test.sh --valgrind  the phpt suite under valgrind (USE_ZEND_ALLOC=0);
#                               --valgrind=03_server,06_watchdog those folders only,
#                               --valgrind=!03_server,06_watchdog the others
#   scripts/test.sh --asan      the phpt suite against a build with AddressSanitizer and
#                               LeakSanitizer (USE_ZEND_ALLOC=0), made in a copy of the tree
#   scripts/test.sh --ubsan     the same with UndefinedBehaviorSanitizer: any report fails
#   scripts/test.sh --sanitizers  both in one build (what CI runs)
#                               (each of the three then runs the API fuzz, tests/fuzz/api.php,
#                               against that build: RLOCK_FUZZ_SECONDS, 90; RLOCK_FUZZ_SEED)
#   scripts/test.sh --phpt | --phpunit   one suite only
#   scripts/test.sh --phpt tests/01_lock/001_acquire_release.phpt [MORE...]   only those phpt
#                               (a file or a folder of tests/: an area, tests/08_semaphore)
#   scripts/test.sh --phpunit --filter SemaphoreTest   PHPUnit's arguments after --phpunit
#   scripts/test.sh --release   the release check (scripts/release-check.sh): package.xml,
#                               pecl package, the tarball built and its phpt suite; `all` runs it last
#   scripts/test.sh --valkey    the phpt suite against valkey-server instead of redis-server
#   scripts/test.sh --zts       on a thread-safe PHP (scripts/lib/zts.sh, built once, then
#                               reused): the phpt suite, and tests/zts/harness.c's threads of
#                               one process serving requests, under ThreadSanitizer
#   scripts/test.sh --torture   the torture test alone (scripts/torture.sh), 60 s
#   scripts/test.sh --debian13  in a Debian 13 root (scripts/lib/root.sh, made once, then
#                               reused): --phpt, --phpunit, --valkey and --torture there (needs root)
#   scripts/test.sh --php85     --phpt in a Debian 13 root with experimental's PHP 8.5 (by hand)
#   scripts/test.sh --swoole    the Swoole scenarios (tests/phpunit/SwooleTest.php) with Swoole
#                               built once into /var/cache/rlock/swoole (scripts/lib/swoole.sh)
# The plain run (no argument) also runs the torture test (scripts/torture.sh) for 130 s;
# --valgrind, --sanitizers, --swoole and --zts a shorter one each, against their build or
# runtime (--zts: its workers threads of the harness).
# PHP: the installed one, else the newest the distribution has (rlock_php; RLOCK_PHP=8.x).
# A test that hangs fails after run-tests' 60 s without output (300 s under valgrind), and
# every process the run started is stopped when it ends, however it ends.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
. scripts/lib/deps.sh
rlock_faketime_clean

mode=${1:-all}
[ $# -eq 0 ] || shift
# --valgrind=FOLDERS: a part of the suite under valgrind (a step of its own in CI, beside
# the other part): the folders of tests/ named, comma-separated, or with a leading ! every
# folder but those
valgrind_part=
case "$mode" in --valgrind=?*) valgrind_part=${mode#--valgrind=} mode=--valgrind ;; esac
# --phpt's tests (else tests/, every folder), --phpunit's arguments (else phpunit.xml's suite)
args=("$@") phpt_tests=()
if [ ${#args[@]} -gt 0 ] && [ "$mode" != --phpt ] && [ "$mode" != --phpunit ]; then
	echo "$0 $mode takes no arguments" >&2
	exit 2
fi
case "$mode" in
	--debian13|--php85)
		. scripts/lib/root.sh
		if [ "$mode" = --debian13 ]; then
			rlock_root_run debian13 --phpt --phpunit --valkey --torture
		else
			rlock_root_run php85 --phpt
		fi
		exit ;;
esac
v=$(rlock_php)
need=("php$v-dev" "php$v-cli" libhiredis-dev libssl-dev pkg-config redis-server redis-tools faketime)
# promtool checks rlock_metrics() (phpt 653); PrometheusTest scrapes it with the server
need+=(prometheus)
# PHPUnit, the locks SeckillTest compares, composer (BridgePackageTest installs the bridge),
# the rate limit bridges' symfony/rate-limiter, and the frameworks' events the worker loops'
# listeners take (BridgeWorkerTest, WorkerLoopTest)
[ "$mode" = --phpt ] || [ "$mode" = --valkey ] || [ "$mode" = --zts ] ||
	need+=(php-pear phpunit "php$v-redis" php-symfony-lock php-symfony-semaphore php-illuminate-cache php-illuminate-redis composer
		php-symfony-rate-limiter php-symfony-http-kernel php-symfony-messenger php-illuminate-events php-illuminate-queue)
[ "$mode" = "--valkey" ] && need+=(valkey-server)
# valgrind: the --valgrind run, and helgrind in phpt 742 (every phpt run, the tarball's too)
need+=(valgrind)
case "$mode" in --asan|--sanitizers) need+=(libasan8) ;; esac
case "$mode" in --ubsan|--sanitizers) need+=(libubsan1) ;; esac
[ "$mode" = --zts ] && need+=(libtsan2)
# NetworkTest: namespaces and veths (ip), partitions and loss (nft), the delay (tc netem, or
# iptables' NFQUEUE to tests/phpunit/netdelay.c where the kernel has no sch_netem)
if [ "$mode" = all ] || [ "$mode" = --phpunit ]; then need+=(nginx "php$v-fpm" iproute2 nftables iptables chromium); fi
rlock_install "${need[@]}"
# (--valgrind, the sanitizers and --zts build in a copy of the tree: tree_copy)
case "$mode" in --release|--valgrind|--asan|--ubsan|--sanitizers|--zts) ;; *) rlock_build ;; esac
if [ "$mode" = --swoole ]; then
	. scripts/lib/swoole.sh
	RLOCK_SWOOLE_SO=$(rlock_swoole_so)
	export RLOCK_SWOOLE_SO
fi

work=$(mktemp -d)
# every process started from here on carries the tag: rlock_reap finds what is left
export RLOCK_RUN=$work
# (under set -e a command that fails in this trap would fail the run: none may)
trap 'rlock_redis_stop "$work"; rlock_reap "$work"; rlock_faketime_clean; rm -rf "$work" || echo "warning: $work not removed" >&2' EXIT
trap 'exit 143' TERM INT
# php, and every php the tests start, without an rlock installed system-wide: the module
# tested is the one just built (modules/rlock.so), loaded with -d extension=
rlock_ini_use "$work/php-ini"
port=$(rlock_free_port)
[ "$mode" = --valkey ] && export RLOCK_TEST_SERVER=valkey-server
rlock_redis_start "$work" "$port"
echo "PHP $(php -r 'echo PHP_VERSION;'), $(redis-cli -p "$port" INFO server | grep -E '^(redis|valkey)_version:' | tr -d '\r' | tail -n 1)"
export RLOCK_TEST_HOST=127.0.0.1 RLOCK_TEST_PORT=$port
export RLOCK_EXT="$repo/modules/rlock.so"

status=0
# The phpt suite: as built (no argument), under valgrind, or against a sanitizer build
# (address, undefined).
run_phpt() {
	local args="-q --show-diff --no-color --show-slow 5000" dir=. php=() ini=() sanitized=
	case "${1:-}" in
		"") ;;
		# run-tests runs valgrind with --trace-children=yes: the redis-servers and tools a
		# test starts would run under it too (slow, and not ours to check)
		valgrind) args="$args -m" sanitized=valgrind
			export VALGRIND_OPTS="--trace-children-skip=*/redis-server,*/valkey-server,*/redis-cli,*/true,*/kill,*/faketime,*/promtool"
			# in a tree of its own: .ci/run runs this beside scripts/test.sh in the repo
			dir=$(tree_copy valgrind)
			(cd "$dir" && rlock_build) >&2 ;;
		# the ZTS php with no php.ini: the machine's extensions are not built for it
		zts) sanitized=zts dir=$(tree_build zts "$zts/bin/"); php=(PHP_EXECUTABLE="$zts/bin/php") ini=(PHPRC="$work/zts.ini" PHP_INI_SCAN_DIR=) ;;
		# (a test that watches for a while, its leases scaled by rlock_test_slow(), may run
		# past run-tests' 60 s without output)
		*) dir=$(sanitizer_build "$1"); php=(PHP_EXECUTABLE="$dir/php-sanitized") sanitized=$1 sanitized_dir=$dir
			args="$args --set-timeout 240" ;;
	esac
	local tests=tests
	[ ${#phpt_tests[@]} -eq 0 ] || tests="${phpt_tests[*]}"
	(cd "$dir" && env "${ini[@]}" NO_INTERACTION=1 REPORT_EXIT_STATUS=1 make -s test "${php[@]}" TESTS="$args $tests") \
		| tee "$work/phpt.log" || status=1
	# tests ran, none skipped (but for the TLS tests a build cannot run), none passed only on
	# a retry: deps.sh
	rlock_phpt_verdict "$work/phpt.log" "$sanitized" || status=1
}
# The API fuzz (tests/fuzz/api.php: every function and method given wrong and extreme
# arguments, objects in odd states) against the sanitizer build run_phpt made: a crash, a
# report (its stderr), a warning or an exception of another class fails it. Its seed is
# printed: RLOCK_FUZZ_SEED=N replays it. Alone, against any build:
#   RLOCK_TEST_PORT=6379 php -d extension=$PWD/modules/rlock.so tests/fuzz/api.php --seed=N
sanitized_dir=
run_fuzz() {
	local dir=$sanitized_dir
	(cd "$dir" && "$dir/php-sanitized" -n -d extension="$dir/modules/rlock.so" tests/fuzz/api.php \
		--seconds="${RLOCK_FUZZ_SECONDS:-90}" ${RLOCK_FUZZ_SEED:+--seed="$RLOCK_FUZZ_SEED"}) \
		2> "$work/fuzz.err" | tee "$work/fuzz.log" || status=1
	if [ -s "$work/fuzz.err" ]; then
		echo "fuzz: its supervisor wrote to stderr:" >&2
		head -c 20000 "$work/fuzz.err" >&2
		echo "fuzz: 0 passed, 1 failed" >> "$work/fuzz.log"
	fi
}
# A build with sanitizers, a comma list of address (AddressSanitizer and LeakSanitizer) and
# undefined (UndefinedBehaviorSanitizer, every report fatal), in a copy of the tree (the repo's
# own build stays as it is), and a php wrapper, php-sanitized, that runs only the test processes
# with it: it preloads the runtimes, and nodeepbind.so, as PHP dlopen()s extensions with
# RTLD_DEEPBIND, which ASan refuses. A report goes to stderr, which run-tests compares: any
# error or leak fails its test. Prints the directory.
sanitizer_build() {
	local sans=$1 dir="$work/${1//,/-}" san runtimes="" env="" lib
	for san in ${sans//,/ }; do
		case $san in
			# (the tests scale their leases by 4, not by valgrind's 10: rlock_test_slow())
			address) lib=libasan.so env="$env ASAN_OPTIONS=detect_leaks=1:verify_asan_link_order=0 USE_ZEND_ALLOC=0 RLOCK_TEST_SLOW=4" ;;
			undefined) lib=libubsan.so env="$env UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1" ;;
			*) echo "no sanitizer $san" >&2; return 1 ;;
		esac
		runtimes="$runtimes $(gcc -print-file-name="$lib")"
	done
	tree_build "${sans//,/-}" "" -O1 -g -fsanitize="$sans" -fno-sanitize-recover=all -fno-omit-frame-pointer >/dev/null
	gcc -shared -fPIC -O2 -o "$dir/nodeepbind.so" scripts/lib/nodeepbind.c -ldl >&2
	cat > "$dir/php-sanitized" <<-SH
		#!/bin/sh
		LD_PRELOAD="$dir/nodeepbind.so$runtimes"$env \\
			exec $(command -v php) "\$@"
	SH
	chmod +x "$dir/php-sanitized"
	echo "$dir"
}
# A copy of the work tree's files (tracked, and new ones git does not ignore) in $work/NAME,
# for a build and a phpt run that share nothing with the repo's (make test writes
# tmp-php.ini and each test's files beside it): another scripts/test.sh may run in the repo
# meanwhile. Prints the directory.
tree_copy() {
	local dir="$work/$1" f
	mkdir -p "$dir"
	git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
		if [ -e "$f" ]; then printf '%s\0' "$f"; fi
	done | xargs -0 cp --parents -t "$dir"
	echo "$dir"
}
# tree_build NAME BINDIR CFLAGS...: rlock built in a copy of the tree, $work/NAME (the repo's
# own build stays as it is), with BINDIR's phpize and php-config (the PATH's when empty) and
# CFLAGS (each also given to the linker: -fsanitize=). Prints the directory.
tree_build() {
	local dir bin=$2
	dir=$(tree_copy "$1")
	shift 2
	(cd "$dir" && "${bin}phpize" >/dev/null && ./configure -q --enable-rlock --with-php-config="${bin}php-config" \
		CFLAGS="$*" LDFLAGS="$*" >/dev/null && make -s -j"$(nproc)" >/dev/null) >&2
	echo "$dir"
}
# On a ZTS PHP (scripts/lib/zts.sh): the phpt suite, then tests/zts/harness.c, threads of one
# process serving requests through the embed SAPI as FrankenPHP does, each scenario of
# tests/zts/ in it, rlock and the harness built with ThreadSanitizer: a report fails the run.
# tests/zts/tsan.supp names races of PHP's own code only.
run_zts() {
	local start=$SECONDS dir scenario args
	. scripts/lib/zts.sh
	zts=$(rlock_zts_make) || { status=1; return; }
	echo "ZTS PHP: $("$zts/bin/php" -n -r 'echo PHP_VERSION, PHP_ZTS ? " ZTS" : " NTS";') ($zts), built in $((SECONDS - start)) s or cached"
	: > "$work/zts.ini"
	run_phpt zts
	dir=$(tree_build zts-tsan "$zts/bin/" -O1 -g -fsanitize=thread -fno-omit-frame-pointer)
	# nodeepbind.c: the sanitizer runtime refuses PHP's RTLD_DEEPBIND dlopen() of the extension
	# shellcheck disable=SC2046
	gcc -O1 -g -fsanitize=thread -fno-omit-frame-pointer $("$zts/bin/php-config" --includes) \
		-o "$dir/harness" tests/zts/harness.c scripts/lib/nodeepbind.c -ldl \
		-L"$zts/lib" -lphp -Wl,-rpath,"$zts/lib" || { status=1; return; }
	# (no PCRE JIT: under ThreadSanitizer its executable mapping can fail, once in a 60 s
	# torture run, and PHP warns of it in whatever thread ran a regex; rlock has none)
	printf 'extension=%s\npcre.jit=0\n' "$dir/modules/rlock.so" > "$dir/harness.ini"
	# scenario, then the harness' arguments: [-f] THREADS REQUESTS
	while read -r scenario args; do
		# shellcheck disable=SC2086
		PHPRC="$dir/harness.ini" PHP_INI_SCAN_DIR='' \
			TSAN_OPTIONS="halt_on_error=1 exitcode=66 die_after_fork=0 second_deadlock_stack=1 suppressions=$repo/tests/zts/tsan.supp" \
			"$dir/harness" $args "$repo/tests/zts/$scenario.php" \
			|| { echo "zts: tests/zts/$scenario.php failed" >&2; status=1; }
	done <<-LIST
		exclusion 4 25
		holds 3 1
		watchdog 4 1
		fork -f 3 1
		stats 8 3
	LIST
	# the torture test, its workers processes of the harness' threads (ThreadSanitizer), the
	# rogue caller on the ZTS php
	TSAN_OPTIONS="halt_on_error=1 exitcode=66 die_after_fork=0 second_deadlock_stack=1 suppressions=$repo/tests/zts/tsan.supp" \
		run_torture 60 --lane=zts --php="$zts/bin/php" --ext="$work/zts/modules/rlock.so" --harness="$dir/harness" --harness-ini="$dir/harness.ini"
	echo "zts: $((SECONDS - start)) s"
}
# The torture test (scripts/torture.sh, tests/torture/) for SECONDS against the build of the
# mode: its log is $work/torture.log, whose "torture: N passed, N failed" summary() counts.
# A seed at random each run (printed first; scripts/torture.sh --seed=N runs it again).
# run_torture SECONDS [torture.sh arguments...]
run_torture() {
	local seconds=$1
	shift
	bash scripts/torture.sh --seconds="$seconds" "$@" 2>&1 | tee "$work/torture.log" || status=1
	grep -qE '^torture: [0-9]+ passed, 0 failed$' "$work/torture.log" || status=1
}
run_release() {
	bash scripts/release-check.sh || status=1
}
# (arguments: the tests to run, else the suite of phpunit.xml)
run_phpunit() {
	php -d extension="$RLOCK_EXT" /usr/bin/phpunit --colors=never -c tests/phpunit/phpunit.xml "$@" | tee "$work/phpunit.log" || status=1
	# a run of no test is no pass
	if ! grep -qE '^(OK \([1-9][0-9]* tests?|Tests: [1-9])' "$work/phpunit.log"; then
		echo "phpunit: no test ran" >&2
		status=1
	fi
}
# One closing line over the suites (and the fuzz): "rlock: N passed, N failed".
summary() {
	local passed=0 failed=0 n
	if [ -f "$work/phpt.log" ]; then
		n=$(sed -nE 's/^Tests passed *: *([0-9]+).*/\1/p' "$work/phpt.log"); passed=$((passed + ${n:-0}))
		n=$(sed -nE 's/^Tests failed *: *([0-9]+).*/\1/p' "$work/phpt.log"); failed=$((failed + ${n:-0}))
		n=$(sed -nE 's/^Tests warned *: *([0-9]+).*/\1/p' "$work/phpt.log"); failed=$((failed + ${n:-0}))
	fi
	if [ -f "$work/torture.log" ]; then
		n=$(sed -nE 's/^torture: ([0-9]+) passed, ([0-9]+) failed$/\1/p' "$work/torture.log" | tail -n 1); passed=$((passed + ${n:-0}))
		n=$(sed -nE 's/^torture: ([0-9]+) passed, ([0-9]+) failed$/\2/p' "$work/torture.log" | tail -n 1); failed=$((failed + ${n:-1}))
	fi
	if [ -f "$work/phpunit.log" ]; then
		local total bad=0
		total=$(sed -nE 's/^OK \(([0-9]+) tests?.*/\1/p; s/^Tests: ([0-9]+),.*/\1/p' "$work/phpunit.log" | tail -n 1)
		for kind in Errors Failures; do
			n=$(sed -nE "s/.*$kind: ([0-9]+).*/\1/p" "$work/phpunit.log" | tail -n 1)
			bad=$((bad + ${n:-0}))
		done
		passed=$((passed + ${total:-0} - bad)); failed=$((failed + bad))
	fi
	if [ -f "$work/fuzz.log" ]; then
		if grep -qE '^fuzz: [0-9]+ passed, [0-9]+ failed' "$work/fuzz.log"; then
			n=$(sed -nE 's/^fuzz: ([0-9]+) passed.*/\1/p' "$work/fuzz.log" | tail -n 1); passed=$((passed + n))
			n=$(sed -nE 's/^fuzz: [0-9]+ passed, ([0-9]+) failed.*/\1/p' "$work/fuzz.log" | tail -n 1); failed=$((failed + n))
		else
			failed=$((failed + 1))
		fi
	fi
	[ $status -eq 0 ] || [ $failed -gt 0 ] || failed=1
	echo "rlock: $passed passed, $failed failed"
}
# valgrind_folders: --valgrind=FOLDERS' tests (phpt_tests), none named: the whole suite
valgrind_folders() {
	local d keep
	[ -n "$valgrind_part" ] || return 0
	for d in tests/*/; do
		d=${d%/}
		ls "$d"/*.phpt > /dev/null 2>&1 || continue
		keep=0
		case ",${valgrind_part#!}," in *",$d,"* | *",${d#tests/},"*) keep=1 ;; esac
		[ "${valgrind_part:0:1}" != '!' ] || keep=$((1 - keep))
		[ $keep -eq 0 ] || phpt_tests+=("$d")
	done
	if [ ${#phpt_tests[@]} -eq 0 ]; then
		echo "--valgrind=$valgrind_part: no folder of tests/" >&2
		exit 2
	fi
}
case "$mode" in
	# the torture test after the suite, against the same build: its workers under valgrind, or
	# the sanitizer php wrapper (a report fails it); fewer workers, a shorter run; the API fuzz
	# against the sanitizer builds
	--valgrind) valgrind_folders; run_phpt valgrind; run_torture 50 --lane=valgrind --workers=3 --ext="$work/valgrind/modules/rlock.so" ;;
	--asan) run_phpt address; run_fuzz ;;
	--ubsan) run_phpt undefined; run_fuzz ;;
	--sanitizers) run_phpt address,undefined; run_fuzz
		run_torture 50 --lane=sanitizers --workers=4 --php="$work/address-undefined/php-sanitized" --ext="$work/address-undefined/modules/rlock.so" ;;
	--phpt|--valkey) phpt_tests=("${args[@]}"); run_phpt ;;
	--zts) run_zts ;;
	--phpunit) run_phpunit "${args[@]}" ;;
	--torture) run_torture 60 ;;
	--swoole) run_phpunit tests/phpunit/SwooleTest.php; run_torture 60 --lane=swoole --swoole="$RLOCK_SWOOLE_SO" ;;
	--release) run_release ;;
	# (the release check's run against the tarball: a sample of each folder, as the whole
	# suite has just run on the same sources)
	all) run_phpt; run_phpunit; run_torture 130; RLOCK_RELEASE_SAMPLE=3 run_release ;;
	*) echo "usage: $0 [--valgrind|--asan|--ubsan|--sanitizers|--phpt|--phpunit|--torture|--release|--valkey|--swoole|--zts|--debian13|--php85]" >&2; exit 2 ;;
esac
[ "$mode" = --release ] || summary
exit $status
