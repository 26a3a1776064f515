#!/usr/bin/env bash
# rlock's seckill demo: a flash sale of 100 items to 5,000 concurrent buyers, through
# nginx and php-fpm with rlock loaded, against Redis on loopback; then the same sale
# under each lock PHP shops use, side by side.
#
#   scripts/demo.sh [--full] [--stock=100] [--requests=5000] [--concurrency=200]
#                   [--skip-deaths] [--workers="16 64"] [--rounds=1] [--compare-requests=1000]
#                   [--locks=rlock,baton,floor,phpredis,symfony,laravel,symfony_rlock,laravel_rlock,none] [--out=DIR]
#
# Installs what is missing (apt-get, as root or through sudo: nginx, redis-server,
# php8.x-fpm, php8.x-cli, php8.x-redis, php-symfony-lock, php-illuminate-cache,
# php-illuminate-redis, gnuplot-nox, and to build rlock php8.x-dev, libhiredis-dev,
# pkg-config, plus make, gcc, git, procps), builds the extension if modules/rlock.so is
# missing, starts redis-server (two: locks and shop data), php-fpm and nginx on free
# 127.0.0.1 ports under a temporary directory, and stops them all on exit. php-fpm runs the
# machine's configuration less any rlock installed system-wide, and loads the module built
# here. Then, on 16 php-fpm workers:
#   1. sells with rlock and persistent connections     -> exactly one order per item
#   2. the same with persistent=false                   -> a new Redis connection per request
#   3. the same without the lock (--no-lock mode)       -> oversold
#   4. impatient buyers (each clicks 3 times) with a rate limit in front of the lock
#      (RRateLimiter: 1 attempt per second per buyer) -> the repeats shed with a 429
#   5. requests that die holding the lock (fatal error, uncaught exception, exit(),
#      max_execution_time)
#   6. one more locked sale on the workers that lived through it all
#   7. workers killed holding the lock by request_terminate_timeout, on a stack whose
#      request_terminate_timeout is 3 s; every other step's is 30 s (STACK_TERMINATE), well
#      above a sale's wait (3 s) plus its work: a slow machine never has a holder killed
#   8. at each worker count: 100 items, 1,000 buyers, 1 ms of work in the sale, under
#      rlock, the baton (the floor of a hand-over lock, unsafe), the owner-checked FIFO
#      floor (the least an owner check and a queue cost, unsafe), the classic SET NX +
#      usleep + EVAL lock, symfony/lock, Laravel's lock, the same two over rlock's
#      framework bridge (bridge/), and no lock; one watched run per lock (MONITOR counts
#      its commands), then one round; the table, and a chart: DIR/demo.md, DIR/demo.png
#      (default DIR: examples/seckill/out)
# A minute or two on 2 cores. --full: the comparison of step 8 with 3,000 buyers and 3 rounds
# (medians), and the goals it is measured against (several minutes).
# Exits non-zero if a locked sale oversells or any check fails (not on a missed goal).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
stock=100 requests=5000 concurrency=200 deaths=1
workers="16 64" rounds=1 compare_requests=1000 locks=rlock,baton,floor,phpredis,symfony,laravel,symfony_rlock,laravel_rlock,none
out=$repo/examples/seckill/out goals=()
for arg in "$@"; do
	case $arg in
	--full) rounds=3 compare_requests=3000 goals=(--goals) ;;
	esac
done
for arg in "$@"; do
	case $arg in
	--full | --quick) ;;  # --quick: what the default run now is
	--stock=*) stock=${arg#*=} ;;
	--requests=*) requests=${arg#*=} ;;
	--concurrency=*) concurrency=${arg#*=} ;;
	--skip-deaths) deaths=0 ;;
	--workers=*) workers=${arg#*=} ;;
	--rounds=*) rounds=${arg#*=} ;;
	--compare-requests=*) compare_requests=${arg#*=} ;;
	--locks=*) locks=${arg#*=} ;;
	--out=*) out=${arg#*=} ;;
	-h | --help) sed -n '2,37p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "demo: unknown argument: $arg" >&2; exit 2 ;;
	esac
done

if [ -t 1 ]; then
	say() { printf '\n\033[1m%s\033[0m\n' "$*"; }
else
	say() { printf '\n%s\n' "$*"; }
fi

# 1. What the demo needs, from apt when missing (as scripts/test.sh: no recommends), for the
# PHP installed (else the newest the distribution has).
# shellcheck disable=SC1091
source "$repo/scripts/lib/deps.sh"
v=$(rlock_php)
packages=(nginx "php$v-fpm" "php$v-cli" "php$v-redis" redis-server)
# the locks it compares rlock with, and the chart
packages+=(php-symfony-lock php-illuminate-cache php-illuminate-redis gnuplot-nox)
[ -f "${RLOCK_SO:-$repo/modules/rlock.so}" ] || packages+=("php$v-dev" libhiredis-dev pkg-config)
rlock_install "${packages[@]}"

# 2. The extension (RLOCK_SO=/path/to/rlock.so uses another build).
if [ -z "${RLOCK_SO:-}" ] && [ ! -f "$repo/modules/rlock.so" ]; then
	say "building rlock"
	(cd "$repo" && phpize && ./configure --enable-rlock && make -j2)
fi
export RLOCK_SO=${RLOCK_SO:-$repo/modules/rlock.so}
[ -f "$RLOCK_SO" ] || { echo "demo: $RLOCK_SO not found" >&2; exit 1; }

# 3. The stack.
# shellcheck disable=SC1091
source "$repo/scripts/lib/stack.sh"
trap 'stack_stop' EXIT
trap 'exit 130' INT TERM
export STACK_WORKERS=${STACK_WORKERS:-16} STACK_MAX_REQUESTS=${STACK_MAX_REQUESTS:-200}
# request_terminate_timeout: well above a sale's wait for the lock (3 s) plus its work, so that
# a slow machine never has php-fpm kill a worker that holds the lock (that would leave it
# behind: the sale's check "no lock left behind" would fail for want of CPU). Killing a worker
# mid-hold is the death step's own (7), on a stack of its own with a short timeout.
sale_terminate=${STACK_TERMINATE:-30}
death_terminate=3
export STACK_TERMINATE=$sale_terminate
# the framework rows' classes preloaded (opcache.preload, as symfony advises for production)
export STACK_PRELOAD=$repo/examples/seckill/preload.php
stack_info() {
	cat <<-INFO

		rlock seckill demo
		  php $(php -r 'echo PHP_VERSION;'), $(nginx -v 2>&1 | sed 's/.*: //'), redis $(redis-server --version | sed 's/.*v=\([^ ]*\).*/\1/'), $(nproc) cores
		  nginx      $STACK_URL
		  status     $STACK_URL/status/   (the pool's locks, live: open it while the sale runs)
		  php-fpm    $STACK_WORKERS workers (pm = static, pm.max_requests = $STACK_MAX_REQUESTS, request_terminate_timeout = ${STACK_TERMINATE}s), rlock loaded
		  redis      locks on $STACK_LOCK_REDIS, shop data on $STACK_SHOP_REDIS
		  stack dir  $STACK_DIR (removed on exit)
	INFO
}
stack_start
stack_info
mkdir -p "$out"

seckill() { php "$repo/examples/seckill/bin/seckill.php" "$@"; }
# what php-fpm and PHP logged, before a stack and its logs go away
show_logs() {
	echo "  SOME CHECKS FAILED; the logs of the stack in $STACK_DIR:"
	grep -h -v NOTICE "$STACK_DIR"/php-fpm.log "$STACK_DIR"/php-error.log 2>/dev/null | tail -n 20 >&2 || true
}
sale=(--stock="$stock" --requests="$requests" --concurrency="$concurrency")
failed=0

say "1. with rlock"
seckill run "${sale[@]}" --sku=phone-locked --title="with rlock (persistent connections)" \
	--json="$out/locked.json" || failed=1

say "2. with rlock, persistent => false"
seckill run "${sale[@]}" --sku=phone-fresh --persistent=0 --title="with rlock, persistent => false" \
	--json="$out/fresh.json" || failed=1

say "3. without the lock (--no-lock)"
seckill run "${sale[@]}" --sku=phone-unlocked --lock=0 --title="without the lock" \
	--json="$out/unlocked.json" || failed=1

say "4. impatient buyers, each clicking 3 times, a rate limit of 1 per second per buyer before the lock"
seckill run "${sale[@]}" --sku=phone-limited --clicks=3 --limit=1 \
	--title="with rlock behind RRateLimiter (1/s per buyer)" --json="$out/limited.json" || failed=1

# restart_stack TERMINATE: the stack again, with request_terminate_timeout TERMINATE s
restart_stack() {
	[ "$failed" = 0 ] || show_logs
	stack_stop
	STACK_TERMINATE=$1
	stack_start
	stack_info
}

step=7
if [ "$deaths" = 1 ]; then
	# on the sale's stack: max_execution_time counts CPU time, which a busy machine gives out
	# slowly, and php-fpm must not kill the worker before it runs out
	say "5. requests that die holding the lock (TTL 5000 ms)"
	seckill death --how=fatal,exception,exit,timeout --api=sync,lock || failed=1

	say "6. with rlock again, on the workers that lived through the deaths"
	seckill run --stock=50 --requests=1000 --concurrency="$concurrency" --sku=phone-after \
		--title="with rlock, after the deaths" --json="$out/after.json" || failed=1

	# php-fpm kills the worker after death_terminate s: a stack of its own, then the sale's again
	restart_stack "$death_terminate"
	say "7. workers killed holding the lock (request_terminate_timeout ${death_terminate} s)"
	seckill death --how=killed --api=sync,lock || failed=1
	restart_stack "$sale_terminate"
	step=8
fi

runs=("rlock=$out/locked.json" "rlock, persistent=false=$out/fresh.json" "no lock=$out/unlocked.json")
runs+=("rlock + rate limit=$out/limited.json")
[ "$deaths" = 1 ] && runs+=("rlock, after the deaths=$out/after.json")

# 6. The same sale under each lock, at each worker count (a stack of its own for each).
compared=()
for n in $workers; do
	if [ "$n" != "$STACK_WORKERS" ]; then
		STACK_WORKERS=$n
		restart_stack "$sale_terminate"
	fi
	say "$step. each lock, $n php-fpm workers: $stock items, $compare_requests buyers ($concurrency at a time), 1 ms of work in the sale, $rounds round(s)"
	seckill compare --locks="$locks" --rounds="$rounds" --stock="$stock" --requests="$compare_requests" \
		--concurrency="$concurrency" --work-us=1000 --json="$out/compare-$n.json" || failed=1
	compared+=("$out/compare-$n.json")
	step=$((step + 1))
done

say "summary"
seckill summary "${runs[@]}"
echo
seckill table "${goals[@]}" --md="$out/demo.md" --dat="$out/demo.dat" "${compared[@]}"
gnuplot -e "dat='$out/demo.dat'; out='$out/demo.png'; workers='$workers'" "$repo/examples/seckill/chart.gp" &&
	echo "  chart: $out/demo.png"
if [ "$failed" = 0 ]; then
	echo "  every check passed"
else
	show_logs
fi
exit "$failed"
