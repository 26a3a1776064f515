#!/usr/bin/env bash
# Build rlock and run its tests against a redis-server of its own.
#   scripts/test.sh             phpt suite (make test) and PHPUnit scenarios
#   scripts/test.sh --valgrind  the phpt suite under valgrind (USE_ZEND_ALLOC=0)
#   scripts/test.sh --asan      the phpt suite against a build with AddressSanitizer and
#                               LeakSanitizer (USE_ZEND_ALLOC=0), made in a copy of the tree
#   scripts/test.sh --phpt | --phpunit   one suite only
#   scripts/test.sh --release   the release check (scripts/release-check.sh): package.xml,
#                               pecl package, the tarball built and its phpt suite; `all` runs it last
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
. scripts/lib/deps.sh

mode=${1:-all}
need=(php8.2-dev php8.2-cli php-pear libhiredis-dev pkg-config redis-server redis-tools phpunit php8.2-redis
	php-symfony-lock php-illuminate-cache php-illuminate-redis)  # the locks SeckillTest compares
[ "$mode" = "--valgrind" ] && need+=(valgrind)
[ "$mode" = "--asan" ] && need+=(gcc libasan8)
if [ "$mode" = all ] || [ "$mode" = --phpunit ]; then need+=(nginx php8.2-fpm); fi
rlock_install "${need[@]}"
case "$mode" in --release|--asan) ;; *) rlock_build ;; esac

work=$(mktemp -d)
trap 'rlock_redis_stop "$work"; rm -rf "$work"' EXIT
port=$(rlock_free_port)
rlock_redis_start "$work" "$port"
export RLOCK_TEST_HOST=127.0.0.1 RLOCK_TEST_PORT=$port
export RLOCK_EXT="$repo/modules/rlock.so"

status=0
# The phpt suite: as built (no argument), under valgrind, or against an ASan build (asan).
run_phpt() {
	local args="-q --show-diff --no-color" dir=. php=()
	case "${1:-}" in
		valgrind) args="$args -m" ;;
		asan) dir=$(asan_build); php=(PHP_EXECUTABLE="$dir/php-asan") ;;
	esac
	(cd "$dir" && NO_INTERACTION=1 REPORT_EXIT_STATUS=1 make -s test "${php[@]}" TESTS="$args tests") \
		| tee "$work/phpt.log" || status=1
	# a skipped test is not a passed one: here every test has what it needs
	if grep -Eq "Tests skipped *: *[1-9]" "$work/phpt.log"; then
		echo "phpt: tests were skipped" >&2
		status=1
	fi
}
# An ASan build in a copy of the tree (the repo's own build stays as it is), and a php
# wrapper that runs only the test processes with the sanitizer: it preloads libasan, and
# nodeepbind.so, as PHP dlopen()s extensions with RTLD_DEEPBIND, which ASan refuses. A
# report goes to stderr, which run-tests compares: any error or leak fails its test.
asan_build() {
	local dir="$work/asan" asan
	mkdir -p "$dir"
	git ls-files -z | xargs -0 cp --parents -t "$dir"
	(cd "$dir" && phpize >/dev/null && ./configure -q --enable-rlock \
		CFLAGS="-O1 -g -fsanitize=address -fno-omit-frame-pointer" LDFLAGS="-fsanitize=address" >/dev/null \
		&& make -s -j"$(nproc)" >/dev/null) >&2
	asan=$(gcc -print-file-name=libasan.so)
	gcc -shared -fPIC -O2 -o "$dir/nodeepbind.so" scripts/lib/nodeepbind.c -ldl >&2
	cat > "$dir/php-asan" <<-SH
		#!/bin/sh
		LD_PRELOAD="$dir/nodeepbind.so $asan" ASAN_OPTIONS=detect_leaks=1:verify_asan_link_order=0 \\
			USE_ZEND_ALLOC=0 exec $(command -v php) "\$@"
	SH
	chmod +x "$dir/php-asan"
	echo "$dir"
}
run_release() {
	bash scripts/release-check.sh || status=1
}
run_phpunit() {
	php -d extension="$RLOCK_EXT" /usr/bin/phpunit --colors=never -c tests/phpunit/phpunit.xml | tee "$work/phpunit.log" || status=1
}
# One closing line over both suites: "rlock: N passed, N failed".
summary() {
	local passed=0 failed=0 n
	if [ -f "$work/phpt.log" ]; then
		n=$(sed -nE 's/^Tests passed *: *([0-9]+).*/\1/p' "$work/phpt.log"); passed=$((passed + ${n:-0}))
		n=$(sed -nE 's/^Tests failed *: *([0-9]+).*/\1/p' "$work/phpt.log"); failed=$((failed + ${n:-0}))
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
	[ $status -eq 0 ] || [ $failed -gt 0 ] || failed=1
	echo "rlock: $passed passed, $failed failed"
}
case "$mode" in
	--valgrind) run_phpt valgrind ;;
	--asan) run_phpt asan ;;
	--phpt) run_phpt ;;
	--phpunit) run_phpunit ;;
	--release) run_release ;;
	all) run_phpt; run_phpunit; run_release ;;
	*) echo "usage: $0 [--valgrind|--asan|--phpt|--phpunit|--release]" >&2; exit 2 ;;
esac
[ "$mode" = --release ] || summary
exit $status
