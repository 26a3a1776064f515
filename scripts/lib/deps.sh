# Shared by scripts/*.sh: install what is missing, build, start and stop a redis-server, run
# PHP under the machine's configuration less rlock (phpini.sh).

# shellcheck disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/phpini.sh"

# What the scripts here run besides the packages they name, and a minimal Debian 12
# (debootstrap --variant=minbase) lacks: make (phpize builds), git (ls-files: the release
# check, the sanitizer trees), procps (ps: rlock_reap names what it stops); gcc (the
# sanitizer builds) comes with php8.2-dev only as a dependency of libtool, so it is named.
RLOCK_BASE_PACKAGES=(make gcc git procps)

# rlock_missing PKG...: the packages of RLOCK_BASE_PACKAGES and PKG not installed, one a line.
rlock_missing() {
	local p
	for p in "${RLOCK_BASE_PACKAGES[@]}" "$@"; do
		dpkg -s "$p" >/dev/null 2>&1 || echo "$p"
	done
}

# rlock_apt_lock / rlock_apt_unlock: runs of scripts/test.sh side by side (.ci/run) use apt
# one at a time: apt-get update does not wait for another's lock as install does
# (DPkg::Lock::Timeout). The lock is an open file, gone with the process however it ends.
rlock_apt_lock() {
	exec {RLOCK_APT_FD}>>"${TMPDIR:-/tmp}/rlock-apt.lock"
	flock -w 1200 "$RLOCK_APT_FD" || true
}
rlock_apt_unlock() {
	exec {RLOCK_APT_FD}>&-
}

# rlock_install PKG...: apt-get install, without recommends, RLOCK_BASE_PACKAGES and the
# packages named that are not installed yet (apt-get update once). Through sudo unless root.
rlock_install() {
	local missing=() sudo=()
	mapfile -t missing < <(rlock_missing "$@")
	[ ${#missing[@]} -eq 0 ] && return 0
	rlock_apt_lock
	# (what another run installed meanwhile is there now)
	mapfile -t missing < <(rlock_missing "$@")
	if [ ${#missing[@]} -gt 0 ]; then
		echo "installing: ${missing[*]}"
		[ "$(id -u)" = 0 ] || sudo=(sudo)
		# another apt (unattended upgrades) may hold the lock: wait for it
		"${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600 update -q >/dev/null
		DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "${missing[@]}" >/dev/null
	fi
	rlock_apt_unlock
}

# rlock_php: the PHP version the scripts install and build against (8.2, 8.4, ...):
# RLOCK_PHP when set, else the php CLI's when one is installed, else the newest php*-dev
# the distribution offers.
rlock_php() {
	local list
	if [ -n "${RLOCK_PHP:-}" ]; then
		echo "$RLOCK_PHP"
	elif command -v php >/dev/null; then
		php -r 'echo PHP_MAJOR_VERSION, ".", PHP_MINOR_VERSION, "\n";'
	else
		list=$(apt-cache search --names-only '^php[0-9.]+-dev$')
		if [ -z "$list" ]; then
			rlock_apt_lock
			apt-get update -q >/dev/null
			rlock_apt_unlock
			list=$(apt-cache search --names-only '^php[0-9.]+-dev$')
		fi
		sed -nE 's/^php([0-9]+\.[0-9]+)-dev .*/\1/p' <<< "$list" | sort -V | tail -n 1
	fi
}

# rlock_build: phpize, configure and make in the repo (once; again when a source is newer),
# with the phpize and php-config of rlock_php's version when Debian names them so.
rlock_build() {
	local v phpize=phpize config=()
	v=$(rlock_php)
	if command -v "phpize$v" >/dev/null; then
		phpize=phpize$v config=(--with-php-config="php-config$v")
	fi
	if [ ! -f modules/rlock.so ] || [ -n "$(find rlock.c ./*.h src config.m4 -newer modules/rlock.so -print -quit)" ]; then
		[ -f configure ] && [ config.m4 -ot configure ] || "$phpize" >/dev/null
		[ -f Makefile ] && [ configure -ot Makefile ] || ./configure -q --enable-rlock "${config[@]}" CFLAGS="-O2 -g -Wall -Wextra" >/dev/null
		make -s -j"$(nproc)" >/dev/null
	fi
	# a function of ours declared and never defined links (a module may leave symbols to PHP)
	# and kills the process the first time it is called: refused here
	local missing
	missing=$(nm -D --undefined-only modules/rlock.so | awk '$2 ~ /^rlock_/ {print $2}')
	if [ -n "$missing" ]; then
		echo "build: modules/rlock.so calls functions of its own it does not define: $missing" >&2
		return 1
	fi
}

# rlock_free_port: a TCP port on 127.0.0.1 that nothing listens on.
# rlock_phpt_skips LOG: whether the phpt run of LOG skipped nothing it should have run. A
# skipped test is not a passed one: every test has what it needs, but one build cannot run
# both sides of TLS. Where hiredis_ssl is installed (Debian 13) the build has TLS and runs
# tests/tls, and only phpt 305 (a build without TLS refuses rediss://) may skip; elsewhere
# (Debian 12) 305 runs and only tests/tls may skip. SANITIZED names the run when it is not
# the plain one: under valgrind and on ZTS phpt 742 may skip too (helgrind runs in the plain
# run, NTS); a sanitizer build's run may skip 742 and 622 (libfaketime hangs the sanitizer
# runtime's start in its child, whatever their order in LD_PRELOAD; the plain and valgrind
# runs run it).
rlock_phpt_skips() {
	local log=$1 sanitized=${2:-} skipped allowed extra n m=0
	skipped=$(sed -nE 's/^Tests skipped *: *([0-9]+).*/\1/p' "$log")
	allowed='tests/tls/[^]]+'
	if pkg-config --exists hiredis_ssl; then
		allowed='tests/([0-9]+_[a-z_]+/)?305_tls_not_built\.phpt'
	fi
	n=$(grep -cE "SKIP .*\[($allowed)\]" "$log" || true)
	# the run's own: 742 runs helgrind in the plain run only (NTS, not under another tool);
	# 622's faketime hangs the sanitizer runtime's start (the plain and valgrind runs run it);
	# 818 and 831 bound the CPU a spin costs, and 830 a spin's end to 7 ms, which means nothing
	# under valgrind or a sanitizer (they skip where rlock_test_slow() > 1; the plain, ZTS and
	# Debian 13 runs run them)
	local spin='818_spin_backs_off_slow_server|830_spin_stops_at_deadline|831_spin_not_for_wait_replicas'
	case "$sanitized" in
		"") extra= ;;
		zts) extra='742_stats_rtt_clock_no_race' ;;
		valgrind) extra="742_stats_rtt_clock_no_race|$spin" ;;
		*) extra="622_ratelimit_server_clock|742_stats_rtt_clock_no_race|$spin" ;;
	esac
	if [ -n "$extra" ]; then
		extra="tests/([0-9]+_[a-z_]+/)?($extra)\\.phpt"
		m=$(grep -cE "SKIP .*\[$extra\]" "$log" || true)
	fi
	if [ "${skipped:-0}" -ne $((n + m)) ]; then
		echo "phpt: tests were skipped" >&2
		return 1
	fi
	if [ "$n" -gt 1 ]; then
		echo "phpt: $n TLS tests need a build with TLS (hiredis_ssl): scripts/test.sh --debian13 runs them"
	fi
}

# rlock_phpt_verdict LOG [SANITIZED]: whether the phpt run of LOG passed, by one rule wherever a
# phpt suite runs (scripts/test.sh, the release check's tarball): tests ran (a count above zero: make test
# exits 0 running none where it finds no CLI), nothing was skipped that should have run
# (rlock_phpt_skips), and no test passed only when run-tests ran it again (it retries a failure
# that timed out or whose test calls sleep() or microtime(): "Tests warned", "passed on retry").
rlock_phpt_verdict() {
	local log=$1 sanitized=${2:-} n ok=0
	n=$(sed -nE 's/^Tests passed *: *([0-9]+).*/\1/p' "$log")
	if [ "${n:-0}" -eq 0 ]; then
		echo "phpt: no test passed (none ran?)" >&2
		ok=1
	fi
	rlock_phpt_skips "$log" "$sanitized" || ok=1
	if grep -Eq "Tests warned *: *[1-9]" "$log"; then
		echo "phpt: tests failed and passed only on a retry:" >&2
		# (run-tests ends a progress line with \r, not \n: a result shares its line)
		tr '\r' '\n' < "$log" | grep -aE "^WARN " | sed 's/^/  /' >&2 || true
		ok=1
	fi
	return $ok
}

# rlock_faketime_clean: the faketime wrapper's semaphore and shared memory of processes that are
# gone. It names them by its pid and removes them at its exit, but not when it is SIGKILLed (the
# torture test kills its workers, one of them under faketime): a later wrapper given the same
# pid then fails ("sem_open: File exists"). /dev/shm is the root's too (scripts/lib/root.sh).
rlock_faketime_clean() {
	local f p
	for f in /dev/shm/faketime_shm_* /dev/shm/sem.faketime_sem_*; do
		[ -e "$f" ] || continue
		p=${f##*_}
		case $p in '' | *[!0-9]*) continue ;; esac
		kill -0 "$p" 2>/dev/null || rm -f "$f"
	done
}

rlock_free_port() {
	php -r '$s = stream_socket_server("tcp://127.0.0.1:0"); echo explode(":", stream_socket_get_name($s, false))[1];'
}

# rlock_redis_start DIR PORT [ARGS...]: a throw-away redis-server, ready when this returns;
# RLOCK_TEST_SERVER names another server binary (valkey-server).
rlock_redis_start() {
	local dir=$1 port=$2; shift 2
	"${RLOCK_TEST_SERVER:-redis-server}" --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir" \
		--pidfile "$dir/redis-$port.pid" --logfile "$dir/redis-$port.log" --daemonize yes "$@"
	for _ in $(seq 100); do
		redis-cli -p "$port" ping >/dev/null 2>&1 && return 0
		sleep 0.05
	done
	echo "redis-server on port $port did not start:" >&2
	cat "$dir/redis-$port.log" >&2
	return 1
}

# rlock_alive PID: whether the process runs (a zombie does not: this machine's init can take
# seconds to reap a daemon that ended).
rlock_alive() {
	local stat
	stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	stat=${stat##*) }
	[ "${stat:0:1}" != Z ]
}

# rlock_redis_stop DIR: stop every redis-server started in DIR, and await their end (10 s at
# most each): a server that is still shutting down writes its log into DIR.
rlock_redis_stop() {
	local f pid pids=()
	for f in "$1"/redis-*.pid; do
		[ -f "$f" ] || continue
		pid=$(cat "$f")
		kill "$pid" 2>/dev/null && pids+=("$pid")
	done
	for pid in "${pids[@]}"; do
		for _ in $(seq 200); do
			rlock_alive "$pid" || break
			sleep 0.05
		done
	done
}

# rlock_reap TAG: stop (SIGKILL) every process left whose environment has RLOCK_RUN=TAG:
# what a run started and did not stop -- a hung test, its forked children, a server a test
# started -- wherever it was reparented or whatever session it made. /proc/PID/environ is
# the environment a process was exec'd with: the shell that exported the tag is not in it.
rlock_reap() {
	local f pid e entries=() left=()
	for f in /proc/[0-9]*/environ; do
		pid=${f#/proc/}
		pid=${pid%/environ}
		[ "$pid" = $$ ] && continue
		mapfile -d '' entries 2>/dev/null < "$f" || continue
		for e in "${entries[@]}"; do
			if [ "$e" = "RLOCK_RUN=$1" ]; then
				left+=("$pid")
				break
			fi
		done
	done
	[ ${#left[@]} -eq 0 ] && return 0
	echo "stopping what the run left running:" >&2
	ps -o pid=,args= -p "${left[*]}" >&2 || true
	kill -KILL "${left[@]}" 2>/dev/null || true
}
