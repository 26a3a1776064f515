#!/usr/bin/env bash
# rlock's seckill demo: a flash sale of 100 items to 5,000 concurrent buyers, through
# nginx and php-fpm with rlock loaded, against Redis on loopback.
#
#   scripts/demo.sh [--stock=100] [--requests=5000] [--concurrency=200] [--skip-deaths]
#
# Installs what is missing (apt-get), builds the extension if modules/rlock.so is missing,
# starts redis-server (two: locks and shop data), php-fpm and nginx on free 127.0.0.1 ports
# under a temporary directory, and stops them all on exit. Then:
#   1. sells with rlock and persistent connections     -> exactly one order per item
#   2. the same with persistent=false                   -> a new Redis connection per request
#   3. the same without the lock (--no-lock mode)       -> oversold
#   4. requests that die holding the lock (fatal error, uncaught exception, exit(),
#      max_execution_time, worker killed by request_terminate_timeout)
#   5. one more locked sale on the workers that lived through it all
# Exits non-zero if a locked sale oversells or any check fails.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
stock=100 requests=5000 concurrency=200 deaths=1
for arg in "$@"; do
	case $arg in
	--stock=*) stock=${arg#*=} ;;
	--requests=*) requests=${arg#*=} ;;
	--concurrency=*) concurrency=${arg#*=} ;;
	--skip-deaths) deaths=0 ;;
	-h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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
export STACK_TERMINATE=${STACK_TERMINATE:-3}
stack_start
cat <<-INFO

	rlock seckill demo
	  php $(php -r 'echo PHP_VERSION;'), $(nginx -v 2>&1 | sed 's/.*: //'), redis $(redis-server --version | sed 's/.*v=\([^ ]*\).*/\1/'), $(nproc) cores
	  nginx      $STACK_URL
	  php-fpm    $STACK_WORKERS workers (pm = static, pm.max_requests = $STACK_MAX_REQUESTS, request_terminate_timeout = ${STACK_TERMINATE}s), rlock loaded
	  redis      locks on $STACK_LOCK_REDIS, shop data on $STACK_SHOP_REDIS
	  stack dir  $STACK_DIR (removed on exit)
INFO

seckill() { php "$repo/examples/seckill/bin/seckill.php" "$@"; }
sale=(--stock="$stock" --requests="$requests" --concurrency="$concurrency")
failed=0

say "1. with rlock"
seckill run "${sale[@]}" --sku=phone-locked --title="with rlock (persistent connections)" \
	--json="$STACK_DIR/locked.json" || failed=1

say "2. with rlock, persistent => false"
seckill run "${sale[@]}" --sku=phone-fresh --persistent=0 --title="with rlock, persistent => false" \
	--json="$STACK_DIR/fresh.json" || failed=1

say "3. without the lock (--no-lock)"
seckill run "${sale[@]}" --sku=phone-unlocked --lock=0 --title="without the lock" \
	--json="$STACK_DIR/unlocked.json" || failed=1

if [ "$deaths" = 1 ]; then
	say "4. requests that die holding the lock (TTL 5000 ms)"
	seckill death --api=sync,lock || failed=1

	say "5. with rlock again, on the workers that lived through the deaths"
	seckill run --stock=50 --requests=1000 --concurrency="$concurrency" --sku=phone-after \
		--title="with rlock, after the deaths" --json="$STACK_DIR/after.json" || failed=1
fi

say "summary"
runs=("rlock=$STACK_DIR/locked.json" "rlock, persistent=false=$STACK_DIR/fresh.json"
	"no lock=$STACK_DIR/unlocked.json")
[ "$deaths" = 1 ] && runs+=("rlock, after the deaths=$STACK_DIR/after.json")
seckill summary "${runs[@]}"
if [ "$failed" = 0 ]; then
	echo "  every check passed"
else
	echo "  SOME CHECKS FAILED (logs were in $STACK_DIR)"
	grep -h -v NOTICE "$STACK_DIR"/php-fpm.log "$STACK_DIR"/php-error.log 2>/dev/null | tail -n 20 >&2 || true
fi
exit "$failed"
