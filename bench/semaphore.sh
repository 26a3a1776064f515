#!/usr/bin/env bash
# RSemaphore against Laravel's Redis::funnel and symfony/semaphore: P processes on N
# permits (bench/semaphore.php), each library on a redis-server of its own run.
#
#   bench/semaphore.sh            # P=32 N=5, 1 ms sections, 3 s each
#   BENCH_PROCS=64 BENCH_PERMITS=10 bench/semaphore.sh
#   BENCH_RATE=4000 bench/semaphore.sh    # requests arriving at 4000/s (open loop), not a loop
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
. "$REPO/scripts/lib/deps.sh"
v=$(rlock_php)
rlock_install "php$v-redis" php-illuminate-redis php-symfony-semaphore redis-server
[ -f "$REPO/modules/rlock.so" ] || (cd "$REPO" && phpize >/dev/null && ./configure -q --enable-rlock && make -s -j2 >/dev/null)
P=${BENCH_PROCS:-32}; N=${BENCH_PERMITS:-5}; C=${BENCH_SECTION_US:-1000}; S=${BENCH_SECONDS:-3}; R=${BENCH_RATE:-0}
port=$(php -r '$s = stream_socket_server("tcp://127.0.0.1:0"); echo explode(":", stream_socket_get_name($s, false))[1];')
dir=$(mktemp -d /tmp/rlock-bench-sem.XXXXXX)
redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes --dir "$dir" --pidfile "$dir/redis.pid" >/dev/null
trap 'kill $(cat "$dir/redis.pid") 2>/dev/null; rm -rf "$dir"' EXIT
until redis-cli -p "$port" ping >/dev/null 2>&1; do sleep 0.05; done
echo "| library  |   P |  N | offered/s | sections/s | unserved | wait p50 ms | wait p99 ms | wait max ms | fewest sections | Redis CPU us/section | commands/section |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for lib in ${BENCH_LIBS:-rlock laravel symfony}; do
	php -d extension="$REPO/modules/rlock.so" "$REPO/bench/semaphore.php" "$lib" "$port" "$P" "$N" "$C" "$S" "$R"
done
