#!/usr/bin/env bash
# The torture test (tests/torture/): N workers take random primitives over shared resources
# while a fault process kills, stops and cuts, a relay drops, delays and cuts replies, and a
# rogue caller calls the release paths with what it was never given; a witness that shares
# nothing with rlock checks their logs (exclusion, fencing, dead owners, the rate limit, the
# keys left). Seeded: every choice of every process derives from the seed it prints first.
#
#   scripts/torture.sh [--seed=N] [--seconds=N | --minutes=N] [--workers=N]
#       [--lane=plain|valgrind|sanitizers|swoole|zts] [--php=PATH] [--ext=rlock.so] [--swoole=swoole.so]
#       [--harness=PATH --harness-ini=PATH [--threads=N]]
#
# Ends with "torture: 1 passed, 0 failed" (exit 0) or "torture: 0 passed, 1 failed" after
# each violation, its seed and the last lines of the processes involved (exit 1); a failed
# run's logs are kept (their folder is printed). --lane=valgrind runs the workers and the
# rogue caller under valgrind, --lane=sanitizers under --php (scripts/test.sh's sanitizer
# wrapper) with --ext its build, --lane=swoole their pairs of contexts as coroutines (hooks
# on) with --swoole's swoole.so (default: scripts/lib/swoole.sh's cached build), --lane=zts
# its workers as processes of tests/zts/harness.c's threads (--threads each, 3) on a ZTS PHP,
# the rogue caller on --php with --ext (scripts/test.sh --zts runs it). It starts its
# own redis-servers on free ports and stops everything it started however it ends.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
. scripts/lib/deps.sh
rlock_faketime_clean

seed= seconds=120 workers= lane=plain php= ext= swoole= norogue= harness= harness_ini= threads=
for arg in "$@"; do
	case "$arg" in
		--seed=*) seed=${arg#*=} ;;
		--seconds=*) seconds=${arg#*=} ;;
		--minutes=*) seconds=$((${arg#*=} * 60)) ;;
		--workers=*) workers=${arg#*=} ;;
		--lane=*) lane=${arg#*=} ;;
		--php=*) php=${arg#*=} ;;
		--ext=*) ext=${arg#*=} ;;
		--swoole=*) swoole=${arg#*=} ;;
		# (a run without the rogue caller: to tell what it finds from the rest)
		--no-rogue) norogue=1 ;;
		--harness=*) harness=${arg#*=} ;;
		--harness-ini=*) harness_ini=${arg#*=} ;;
		--threads=*) threads=${arg#*=} ;;
		*) echo "usage: $0 [--seed=N] [--seconds=N | --minutes=N] [--workers=N] [--lane=plain|valgrind|sanitizers|swoole|zts] [--php=PATH] [--ext=rlock.so] [--swoole=swoole.so] [--harness=PATH --harness-ini=PATH [--threads=N]]" >&2
			exit 2 ;;
	esac
done
case "$lane" in
	plain | valgrind) ;;
	sanitizers)
		if [ -z "$php" ] || [ -z "$ext" ]; then
			echo "torture: --lane=sanitizers needs --php= (a sanitizer php wrapper) and --ext= (its build): scripts/test.sh --sanitizers runs it" >&2
			exit 2
		fi ;;
	swoole)
		if [ -z "$swoole" ]; then
			. scripts/lib/swoole.sh
			swoole=$(rlock_swoole_cached) || { echo "torture: no cached swoole.so (scripts/lib/swoole.sh rlock_swoole_so builds it)" >&2; exit 2; }
		fi ;;
	zts)
		if [ -z "$php" ] || [ -z "$ext" ] || [ -z "$harness" ] || [ -z "$harness_ini" ]; then
			echo "torture: --lane=zts needs --php= (a ZTS php) and --ext= (its build), --harness= (tests/zts/harness.c built) and --harness-ini= (an ini loading rlock for it): scripts/test.sh --zts runs it" >&2
			exit 2
		fi ;;
	*) echo "torture: no lane $lane" >&2; exit 2 ;;
esac
command -v faketime >/dev/null || rlock_install faketime
if [ -z "$ext" ]; then
	rlock_build
	ext=$repo/modules/rlock.so
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/rlock-torture.XXXXXX")
export RLOCK_RUN=$work
status=0
cleanup() {
	rlock_redis_stop "$work"
	rlock_reap "$work"
	rlock_faketime_clean
	if [ "$status" -eq 0 ]; then
		rm -rf "$work" || true
	else
		echo "torture: the run's logs are in $work (php tests/torture/check.php $work checks them again)"
	fi
}
trap cleanup EXIT
trap 'status=143; exit 143' TERM INT
# php without an rlock installed system-wide (scripts/lib/phpini.sh), unless the caller did it
[ -n "${RLOCK_INI_DIR:-}" ] || rlock_ini_use "$work/php-ini"
args=(--dir="$work" --ext="$ext" --seconds="$seconds" --lane="$lane")
[ -z "$seed" ] || args+=(--seed="$seed")
[ -z "$workers" ] || args+=(--workers="$workers")
[ -z "$php" ] || args+=(--php="$php")
[ -z "$swoole" ] || args+=(--swoole="$swoole")
[ -z "$norogue" ] || args+=(--no-rogue)
[ -z "$harness" ] || args+=(--harness="$harness" --harness-ini="$harness_ini")
[ -z "$threads" ] || args+=(--threads="$threads")
php tests/torture/run.php "${args[@]}" || status=$?
exit $status
