#!/usr/bin/env bash
# The cost of the pool-wide statistics: statistics on against off, the uncontended cycle and
# the flash-sale endpoint's req/s, in one run (bench/stats.php; BENCH_RUNS rounds, default 3).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
. "$REPO/scripts/lib/deps.sh"
v=$(rlock_php)
rlock_install "php$v-cli" "php$v-dev" "php$v-fpm" "php$v-redis" nginx redis-server valgrind libhiredis-dev
[ -f "$REPO/modules/rlock.so" ] || (cd "$REPO" && rlock_build)
exec php -d extension="$REPO/modules/rlock.so" "$REPO/bench/stats.php" "${BENCH_RUNS:-3}"
