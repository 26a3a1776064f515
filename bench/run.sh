#!/usr/bin/env bash
# The side-by-side benchmark: rlock against the PHP Redis locks people use,
# and a C floor. One command; prints a markdown table, writes bench/out/.
#
#   bench/run.sh               full run, about 2 minutes on 2 cores
#   BENCH_QUICK=1 bench/run.sh about 30 seconds
#
# Other knobs: BENCH_LIBS="baton phpredis predis symfony laravel malkusch rlock
# rlock_redlock rlock_cluster", BENCH_PROCS="8 32 128 256", BENCH_SECTION_US=1000,
# BENCH_SECTIONS (per run, all processes together), BENCH_SPIN=1 (busy-wait the
# section instead of sleeping), BENCH_THINK_US (pause between a process's sections),
# BENCH_NO_BUILD=1 (never build the extension here), BENCH_RUNS=3 (all of it 3 times:
# issue 13's targets as the medians of the runs). The Redlock (5 masters)
# and cluster (3 masters) rows run at BENCH_MULTI_PROCS processes (default: 8)
# with BENCH_MULTI_SECTIONS sections (default: BENCH_SECTIONS).
# BENCH_RATELIMIT=1: then the rate limits (bench/ratelimit_exact.php: 64 processes on one
# limit of 100/s, with and without a clock skew; its BENCH_RL_* knobs, BENCH_QUICK: a short
# run), its table appended to the report; BENCH_RATELIMIT=only: the rate limits alone.
# BENCH_SWOOLE=1: then the flash sale on Swoole (bench/swoole.php, with the swoole.so that
# scripts/lib/swoole.sh caches, built the first time: 10-20 minutes), its table appended to
# the report and its rows a panel of the chart; BENCH_SWOOLE=only: that alone.
# The flash sale on php-fpm: examples/seckill's comparison (nginx, php-fpm with
# BENCH_FPM_WORKERS workers, default 64, never recycled), rlock against the baton and the
# owner-checked FIFO floor, BENCH_FPM_ROUNDS rounds (default 5; BENCH_QUICK: 2), its table
# and goals appended to the report (about 25 s); BENCH_FPM=0: not run; BENCH_FPM=only:
# that alone.
# With rlock_redlock: bench/redlock_wait.php, the wait distribution of 8 processes x 25 holds
# of 5 ms over 3 masters beside one server's, a table of the report.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
BENCH=$REPO/bench
OUT=$BENCH/out
SO=$REPO/modules/rlock.so

export BENCH_LIBS=${BENCH_LIBS:-"baton phpredis predis symfony laravel malkusch rlock rlock_redlock rlock_cluster"}
PROCS=${BENCH_PROCS:-"8 32 128 256"}
MULTI_PROCS=${BENCH_MULTI_PROCS:-8}
SECTION_US=${BENCH_SECTION_US:-1000}
if [ -n "${BENCH_QUICK:-}" ]; then
	SECTIONS=${BENCH_SECTIONS:-400}; WATCHED=64; UNCONTENDED_S=0.3; ROUNDS=2; PINGS=2000; WAKES=300
else
	SECTIONS=${BENCH_SECTIONS:-2000}; WATCHED=256; UNCONTENDED_S=0.6; ROUNDS=5; PINGS=5000; WAKES=2000
fi
MULTI_SECTIONS=${BENCH_MULTI_SECTIONS:-$SECTIONS}
REPORT_LIBS=$BENCH_LIBS  # the rows of the report, also those skipped below
has_lib() { case " $BENCH_LIBS " in *" $1 "*) return 0 ;; esac; return 1; }
drop_lib() { BENCH_LIBS=$(echo " $BENCH_LIBS " | sed "s/ $1 / /; s/^ *//; s/ *\$//"); }
# skip LIB WHY: the row says why it has no numbers
skip() { echo "{\"kind\":\"skipped\",\"lib\":\"$1\",\"why\":\"$2\"}" >>"$RESULTS"; drop_lib "$1"; }

say() { echo "bench: $*" >&2; }

# --- what the peers and the floor need -------------------------------------
# the PHP that is installed (else the newest the distribution has), as scripts/test.sh does
. "$REPO/scripts/lib/deps.sh"
v=$(rlock_php)
command -v gnuplot >/dev/null || gnuplot=gnuplot-nox
rlock_install "php$v-cli" "php$v-dev" "php$v-redis" php-predis php-symfony-lock php-illuminate-cache \
	php-illuminate-redis php-malkusch-lock libhiredis-dev redis-server gcc make ${gnuplot:-}
# the rate limits' peers, and faketime for their skewed clocks
[ -z "${BENCH_RATELIMIT:-}" ] || rlock_install php-symfony-rate-limiter php-symfony-cache faketime

mkdir -p "$OUT"
RESULTS=$OUT/results.jsonl
: >"$RESULTS"

# --- a scratch dir and the servers, all gone at exit -------------------------
TMP=$(mktemp -d /tmp/rlock-bench.XXXXXX)
PIDS=()
cleanup() {
	for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
	for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- rlock: use the built extension, build it if there is none -------------
if [ ! -f "$SO" ] && [ -z "${BENCH_NO_BUILD:-}" ] && [ -f "$REPO/config.m4" ]; then
	say "building rlock (log: $OUT/build.log)"
	(cd "$REPO" && phpize && ./configure && make -j2) >"$OUT/build.log" 2>&1 ||
		say "rlock did not build, see $OUT/build.log"
fi
BENCH_PHP=(php)
if php -m | grep -qx rlock; then
	:
elif [ -f "$SO" ]; then
	# load a copy: a rebuild in place must not crash a run in progress
	cp "$SO" "$TMP/rlock.so"
	BENCH_PHP=(php -d "extension=$TMP/rlock.so")
fi
if ! "${BENCH_PHP[@]}" -r 'exit(class_exists("RLock") ? 0 : 1);' 2>/dev/null; then
	for lib in rlock rlock_redlock rlock_cluster; do skip "$lib" "not built"; done
	say "rlock is not built: its rows are marked so"
fi

php_for() { case "$1" in rlock | rlock_*) echo "${BENCH_PHP[@]}" ;; *) echo php ;; esac; }

# ratelimit: bench/ratelimit_exact.php on a redis-server of its own (its children load the
# copy of the extension); BENCH_QUICK makes it short
ratelimit() {
	say "rate limits: bench/ratelimit_exact.php"
	env -u BENCH_PORT BENCH_RLOCK_SO="$TMP/rlock.so" ${BENCH_QUICK:+BENCH_RL_QUICK=1} \
		"${BENCH_PHP[@]}" "$BENCH/ratelimit_exact.php" | tee "$OUT/ratelimit.md"
}
if [ "${BENCH_RATELIMIT:-}" = only ]; then
	ratelimit
	exit
fi
# swoole: bench/swoole.php (its own redis-server; BENCH_QUICK: one round), its rows in
# $OUT/swoole.dat for the chart
swoole() {
	local so
	. "$REPO/scripts/lib/swoole.sh"
	so=$(rlock_swoole_so)
	say "Swoole: bench/swoole.php"
	rm -f "$OUT/swoole.dat"
	"${BENCH_PHP[0]}" -d "extension=$so" "${BENCH_PHP[@]:1}" "$BENCH/swoole.php" --out="$OUT" \
		${BENCH_QUICK:+--runs=1} | tee "$OUT/swoole.md"
}
if [ "${BENCH_SWOOLE:-}" = only ]; then
	swoole
	exit
fi
# fpm: the demo's comparison (examples/seckill/lib/compare.php) on a stack of its own
# (scripts/lib/stack.sh), rlock, the baton and the floor in rotated order. php-fpm's workers
# are never recycled: under an even load all of them reach pm.max_requests together, and the
# run where that falls, respawning every one, loses 10-20% (bench/README.md).
fpm() {
	local rounds=${BENCH_FPM_ROUNDS:-5}
	[ -z "${BENCH_QUICK:-}" ] || rounds=${BENCH_FPM_ROUNDS:-2}
	rlock_install nginx "php$v-fpm"
	say "php-fpm: examples/seckill compare, ${BENCH_FPM_WORKERS:-64} workers"
	(
		export RLOCK_SO=$SO STACK_WORKERS=${BENCH_FPM_WORKERS:-64} STACK_MAX_REQUESTS=0 STACK_TERMINATE=30
		[ ! -f "$TMP/rlock.so" ] || RLOCK_SO=$TMP/rlock.so
		export STACK_FPM_ARGS= STACK_PRELOAD=$REPO/examples/seckill/preload.php
		. "$REPO/scripts/lib/stack.sh"
		trap stack_stop EXIT
		stack_start >&2
		php "$REPO/examples/seckill/bin/seckill.php" compare --locks=rlock,baton,floor \
			--rounds="$rounds" --requests=3000 --concurrency=200 --work-us=1000 \
			--json="$OUT/fpm.json" >&2
		printf '\n## The flash sale on php-fpm (%s workers)\n\n' "$STACK_WORKERS"
		php "$REPO/examples/seckill/bin/seckill.php" table --goals "$OUT/fpm.json"
	) | tee "$OUT/fpm.md"
}
if [ "${BENCH_FPM:-}" = only ]; then
	fpm
	exit
fi

# step KIND LIB PROCS CMD...: runs one measurement, appends its JSON line, or
# an error line when it fails, so one broken library does not end the run.
step() {
	local kind=$1 lib=$2 procs=$3 out
	shift 3
	if out=$("$@"); then
		echo "$out" >>"$RESULTS"
	else
		say "$kind $lib P=$procs failed"
		echo "$out" | grep '"kind":"error"' >>"$RESULTS" ||
			echo "{\"kind\":\"error\",\"lib\":\"$lib\",\"procs\":$procs,\"of\":\"$kind\",\"why\":\"exit status\"}" >>"$RESULTS"
	fi
}

# --- the floor ---------------------------------------------------------------
cc -O2 -o "$OUT/floor" "$BENCH/floor.c" -lhiredis

# --- private Redis servers: locks, the counter, Redlock's, the cluster's --------
# free_ports N: N distinct free loopback ports, held open together while chosen
free_ports() {
	php -r 'for ($i = 0; $i < (int) $argv[1]; $i++) { $s[] = $l = stream_socket_server("tcp://127.0.0.1:0");
		echo parse_url("tcp://" . stream_socket_get_name($l, false), PHP_URL_PORT), " "; }' "$1"
}
# start_redis PORT [redis-server options...]: returns once it answers PING
start_redis() {
	local port=$1
	shift
	redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
		--dir "$TMP" --logfile "$TMP/redis-$port.log" --daemonize no "$@" &
	PIDS+=($!)
	for _ in $(seq 100); do
		[ "$(redis-cli -p "$port" ping 2>/dev/null)" = PONG ] && return 0
		sleep 0.05
	done
	say "redis-server on port $port did not start:"; cat "$TMP/redis-$port.log" >&2
	exit 1
}
# cluster_ok PORT...: every node says cluster_state:ok, sees all slots and all nodes
cluster_ok() {
	local port info
	for port in "$@"; do
		info=$(redis-cli -p "$port" cluster info 2>/dev/null) || return 1
		grep -q '^cluster_state:ok' <<<"$info" && grep -q '^cluster_slots_ok:16384' <<<"$info" &&
			grep -q "^cluster_known_nodes:$#" <<<"$info" || return 1
	done
}
# make_cluster PORT...: 3 masters, no replicas; false when it is not ok within 30 s
make_cluster() {
	local port bus=($(free_ports $#)) i=0 seeds=() deadline=$((SECONDS + 30))
	for port in "$@"; do
		# the bus port is chosen too: the default, port + 10000, may be taken or past 65535
		start_redis "$port" --cluster-enabled yes --cluster-config-file "nodes-$port.conf" \
			--cluster-port "${bus[i]}" --cluster-node-timeout 5000
		seeds+=("127.0.0.1:$port")
		i=$((i + 1))
	done
	redis-cli --cluster create "${seeds[@]}" --cluster-replicas 0 --cluster-yes \
		>"$TMP/cluster-create.log" 2>&1 || { cat "$TMP/cluster-create.log" >&2; return 1; }
	until cluster_ok "$@"; do
		[ $SECONDS -lt $deadline ] || { say "the cluster is not ok after 30 s"; return 1; }
		sleep 0.1
	done
}
export BENCH_HOST=127.0.0.1 BENCH_TMP=$TMP
two=($(free_ports 2))
BENCH_PORT=${two[0]} BENCH_COUNTER_PORT=${two[1]}
start_redis "$BENCH_PORT"
start_redis "$BENCH_COUNTER_PORT"
export BENCH_PORT BENCH_COUNTER_PORT
say "lock server 127.0.0.1:$BENCH_PORT, counter server 127.0.0.1:$BENCH_COUNTER_PORT"
export BENCH_REDLOCK_PORTS= BENCH_CLUSTER_PORTS=
if has_lib rlock_redlock; then
	BENCH_REDLOCK_PORTS=$(free_ports 5)
	for port in $BENCH_REDLOCK_PORTS; do start_redis "$port"; done
	say "Redlock masters 127.0.0.1: $BENCH_REDLOCK_PORTS"
fi
if has_lib rlock_cluster; then
	cluster_ports=$(free_ports 3)
	# shellcheck disable=SC2086
	if make_cluster $cluster_ports; then
		BENCH_CLUSTER_PORTS=$cluster_ports
		say "cluster masters 127.0.0.1: $BENCH_CLUSTER_PORTS"
	else
		skip rlock_cluster "the cluster did not form"
	fi
fi

# --- the runs ------------------------------------------------------------------
# BENCH_RUNS=N: the whole set N times, each run's results kept in results-N.jsonl; the
# report is the last run's, and medians.php adds issue 13's targets as medians of the runs.
RUNS=${BENCH_RUNS:-1}
rm -f "$OUT"/results-*.jsonl
for run in $(seq "$RUNS"); do
	if [ "$run" -gt 1 ]; then
		say "run $run of $RUNS"
		grep '"kind":"skipped"' "$OUT/results-1.jsonl" >"$RESULTS" || true
	fi
	for round in $(seq "$ROUNDS"); do
		say "PING round trip, wake floor and uncontended, round $round of $ROUNDS"
		step ping phpredis 1 php "$BENCH/ping.php" "$PINGS" "$WAKES"
		step uncontended floor 1 "$OUT/floor" "$BENCH_HOST" "$BENCH_PORT" "$UNCONTENDED_S"
		for lib in $BENCH_LIBS; do
			step uncontended "$lib" 1 $(php_for "$lib") "$BENCH/uncontended.php" "$lib" "$UNCONTENDED_S"
		done
	done

	for procs in $(echo "$PROCS $MULTI_PROCS" | tr ' ' '\n' | sort -nu); do
		# at least 4 watched sections per process: a process's first lock of a key costs
		# more than the rest (a plain SET first), once per process, as once per fpm worker
		watched=$(( (WATCHED + procs - 1) / procs ))
		[ "$watched" -ge 4 ] || watched=4
		for lib in $BENCH_LIBS; do
			case "$lib" in
			rlock_redlock | rlock_cluster) case " $MULTI_PROCS " in *" $procs "*) all=$MULTI_SECTIONS ;; *) continue ;; esac ;;
			*) case " $PROCS " in *" $procs "*) all=$SECTIONS ;; *) continue ;; esac ;;
			esac
			each=$(( (all + procs - 1) / procs ))
			say "contended: $lib, $procs x $each sections of $SECTION_US us"
			step contended "$lib" "$procs" $(php_for "$lib") "$BENCH/contended.php" "$lib" "$procs" "$each" "$SECTION_US" "$watched"
		done
	done
	cp "$RESULTS" "$OUT/results-$run.jsonl"
done

# --- waiting order: Redlock's wait distribution beside the one server's ---------------
# bench/redlock_wait.php on the lock server and the first 3 Redlock masters; its table goes
# into the report (BENCH_QUICK: one run of each, else 3)
redlock_wait=
if has_lib rlock_redlock; then
	say "waiting order: bench/redlock_wait.php"
	wait_runs=3
	[ -z "${BENCH_QUICK:-}" ] || wait_runs=1
	redlock_wait=$("${BENCH_PHP[@]}" "$BENCH/redlock_wait.php" 8 25 5000 "$wait_runs") ||
		say "bench/redlock_wait.php failed"
fi

# --- the report ------------------------------------------------------------------
BENCH_LIBS=$(echo "$REPORT_LIBS rlock" | tr ' ' '\n' | awk '!seen[$0]++' | xargs) \
	php "$BENCH/report.php" "$RESULTS" "$OUT"
if [ "$RUNS" -gt 1 ]; then
	php "$BENCH/medians.php" "$OUT"/results-*.jsonl | tee -a "$OUT/report.md"
fi
if [ -n "$redlock_wait" ]; then
	printf '\n## Waiting order: Redlock against one server\n\n%s\n' "$redlock_wait" | tee -a "$OUT/report.md"
fi
rm -f "$OUT/swoole.dat"
if [ -n "${BENCH_SWOOLE:-}" ]; then
	swoole >>"$OUT/report.md"
fi
if [ "${BENCH_FPM:-}" != 0 ]; then
	fpm >>"$OUT/report.md"
fi
gnuplot -e "out='$OUT'; libs='$BENCH_LIBS'" "$BENCH/chart.gp"
if [ -n "${BENCH_RATELIMIT:-}" ]; then
	ratelimit >>"$OUT/report.md"
fi
say "wrote $OUT/report.md and $OUT/bench.png"
