#!/usr/bin/env bash
# Build rlock and run its tests against a redis-server of its own.
#   scripts/test.sh             phpt suite (make test) and PHPUnit scenarios
#   scripts/test.sh --valgrind  the phpt suite under valgrind (USE_ZEND_ALLOC=0)
#   scripts/test.sh --phpt | --phpunit   one suite only
#   scripts/test.sh --release   the release check (scripts/release-check.sh): package.xml,
#                               pecl package, the tarball built and its phpt suite; `all` runs it last
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
. scripts/lib/deps.sh

mode=${1:-all}
need=(php8.2-dev php8.2-cli php-pear libhiredis-dev pkg-config redis-server redis-tools phpunit php8.2-redis)
[ "$mode" = "--valgrind" ] && need+=(valgrind)
if [ "$mode" = all ] || [ "$mode" = --phpunit ]; then need+=(nginx php8.2-fpm); fi
rlock_install "${need[@]}"
[ "$mode" = --release ] || rlock_build

work=$(mktemp -d)
trap 'rlock_redis_stop "$work"; rm -rf "$work"' EXIT
port=$(rlock_free_port)
rlock_redis_start "$work" "$port"
export RLOCK_TEST_HOST=127.0.0.1 RLOCK_TEST_PORT=$port
export RLOCK_EXT="$repo/modules/rlock.so"

status=0
run_phpt() {
	local args="-q --show-diff --no-color"
	[ "${1:-}" = valgrind ] && args="$args -m"
	NO_INTERACTION=1 REPORT_EXIT_STATUS=1 make -s test TESTS="$args tests" | tee "$work/phpt.log" || status=1
	# a skipped test is not a passed one: here every test has what it needs
	if grep -Eq "Tests skipped *: *[1-9]" "$work/phpt.log"; then
		echo "phpt: tests were skipped" >&2
		status=1
	fi
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
	--phpt) run_phpt ;;
	--phpunit) run_phpunit ;;
	--release) run_release ;;
	all) run_phpt; run_phpunit; run_release ;;
	*) echo "usage: $0 [--valgrind|--phpt|--phpunit|--release]" >&2; exit 2 ;;
esac
[ "$mode" = --release ] || summary
exit $status
