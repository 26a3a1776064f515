#!/usr/bin/env bash
# The seckill stack: two Redis servers, php-fpm with rlock loaded, nginx in front,
# all on free 127.0.0.1 ports under one temporary directory.
#
#   source scripts/lib/stack.sh; stack_start; ...; stack_stop    (scripts/demo.sh)
#   scripts/lib/stack.sh start      -> prints the stack's KEY=VALUE lines, leaves it running
#   scripts/lib/stack.sh stop DIR   -> stops the stack living in DIR and removes DIR
#
# The lock and the shop's data live on separate Redis servers, so the lock server's
# counters (INFO stats) count rlock's connections and nothing else.
#
# Settings, read by stack_start from the environment:
#   RLOCK_SO             the extension to load (default: <repo>/modules/rlock.so; none if missing)
#   STACK_WORKERS        php-fpm workers, pm = static (16)
#   STACK_MAX_REQUESTS   pm.max_requests: a worker is recycled after this many requests (200)
#   STACK_TERMINATE      request_terminate_timeout in seconds (3)
#   STACK_FPM_ARGS       more php-fpm arguments, e.g. "-d rlock.ttl=5000" (none)
#   STACK_PRELOAD        a script for opcache.preload, run as this user (none)
#
# After stack_start: STACK_DIR, STACK_URL, STACK_NGINX_PORT, STACK_LOCK_PORT,
# STACK_SHOP_PORT, STACK_LOCK_REDIS, STACK_SHOP_REDIS, STACK_FPM_SOCK, STACK_FPM_PID
# (the php-fpm master: its workers' CPU is in /proc), and the same lines in
# $STACK_DIR/stack.env.

STACK_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck disable=SC1091
. "$STACK_REPO/scripts/lib/phpini.sh"
# the php-fpm of the PHP the CLI runs
STACK_FPM_BIN=${STACK_FPM_BIN:-/usr/sbin/php-fpm$(php -r 'echo PHP_MAJOR_VERSION, ".", PHP_MINOR_VERSION;')}
STACK_NGINX_BIN=${STACK_NGINX_BIN:-/usr/sbin/nginx}
STACK_REDIS_BIN=${STACK_REDIS_BIN:-/usr/bin/redis-server}

stack_log() { echo "stack: $*" >&2; }

# stack_free_ports N: N distinct free TCP ports on 127.0.0.1, one per line. All N sockets
# stay bound until every port is known, so the same port is never handed out twice.
stack_free_ports() {
	# shellcheck disable=SC2016
	php -r '
		$socks = [];
		for ($i = 0; $i < (int) $argv[1]; $i++) {
			$socks[] = $s = stream_socket_server("tcp://127.0.0.1:0", $errno, $errstr);
			if (!$s) { fwrite(STDERR, "bind: $errstr\n"); exit(1); }
			echo substr(strrchr(stream_socket_get_name($s, false), ":"), 1), "\n";
		}' "$1"
}

# stack_wait_tcp PORT SECONDS: until something accepts on 127.0.0.1:PORT.
stack_wait_tcp() {
	local port=$1 deadline=$((SECONDS + ${2:-10}))
	while ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
		[ "$SECONDS" -lt "$deadline" ] || return 1
		sleep 0.05
	done
}

# stack_wait_file PATH SECONDS: until PATH exists.
stack_wait_file() {
	local path=$1 deadline=$((SECONDS + ${2:-10}))
	while [ ! -e "$path" ]; do
		[ "$SECONDS" -lt "$deadline" ] || return 1
		sleep 0.05
	done
}

# stack_spawn NAME CMD...: start CMD in the background, detached from our stdio, pid in
# $STACK_DIR/NAME.pid.
stack_spawn() {
	local name=$1
	shift
	"$@" </dev/null >>"$STACK_DIR/$name.out" 2>&1 &
	echo $! >"$STACK_DIR/$name.pid"
}

stack_start() {
	local workers=${STACK_WORKERS:-16} max_requests=${STACK_MAX_REQUESTS:-200}
	local terminate=${STACK_TERMINATE:-3} so=${RLOCK_SO:-$STACK_REPO/modules/rlock.so}
	local public=$STACK_REPO/examples/seckill/public ports

	STACK_DIR=$(mktemp -d "${TMPDIR:-/tmp}/rlock-seckill.XXXXXX") || return 1
	mapfile -t ports < <(stack_free_ports 3)
	[ "${#ports[@]}" = 3 ] || { stack_log "no free ports"; return 1; }
	STACK_LOCK_PORT=${ports[0]} STACK_SHOP_PORT=${ports[1]} STACK_NGINX_PORT=${ports[2]}
	STACK_LOCK_REDIS=redis://127.0.0.1:$STACK_LOCK_PORT
	STACK_SHOP_REDIS=redis://127.0.0.1:$STACK_SHOP_PORT
	STACK_URL=http://127.0.0.1:$STACK_NGINX_PORT
	STACK_FPM_SOCK=$STACK_DIR/php-fpm.sock
	STACK_WORKERS=$workers STACK_MAX_REQUESTS=$max_requests STACK_TERMINATE=$terminate

	local name port
	for name in lock shop; do
		[ "$name" = lock ] && port=$STACK_LOCK_PORT || port=$STACK_SHOP_PORT
		stack_spawn "redis-$name" "$STACK_REDIS_BIN" --bind 127.0.0.1 --port "$port" \
			--dir "$STACK_DIR" --save '' --appendonly no --daemonize no \
			--logfile "$STACK_DIR/redis-$name.log" --maxclients 10000
	done

	local extension=() root_flag=()
	if [ -f "$so" ]; then
		# php-fpm loads a copy: a rebuild that rewrites modules/rlock.so in place would
		# otherwise change the code under the running master and crash it (SIGSEGV).
		cp "$so" "$STACK_DIR/rlock.so"
		extension=(-d "extension=$STACK_DIR/rlock.so")
	else
		stack_log "warning: $so not found; php-fpm runs without rlock (only lock=0 works)"
	fi
	[ "$(id -u)" = 0 ] && root_flag=(-R)
	cat >"$STACK_DIR/php-fpm.conf" <<-EOF
		[global]
		pid = $STACK_DIR/php-fpm.master.pid
		error_log = $STACK_DIR/php-fpm.log
		daemonize = no
		process_control_timeout = 5s

		[seckill]
		listen = $STACK_FPM_SOCK
		listen.backlog = 1024
		pm = static
		pm.max_children = $workers
		pm.max_requests = $max_requests
		pm.status_path = /fpm-status
		request_terminate_timeout = ${terminate}s
		clear_env = yes
		env[SECKILL_LOCK_REDIS] = $STACK_LOCK_REDIS
		env[SECKILL_SHOP_REDIS] = $STACK_SHOP_REDIS
		catch_workers_output = yes
		php_admin_value[error_log] = $STACK_DIR/php-error.log
		php_admin_flag[log_errors] = on
		php_admin_flag[display_errors] = off
	EOF
	local more=() ini=$STACK_DIR/php-ini
	read -r -a more <<<"${STACK_FPM_ARGS:-}"
	[ -z "${STACK_PRELOAD:-}" ] || more+=(-d "opcache.preload=$STACK_PRELOAD" -d "opcache.preload_user=$(id -un)")
	# php-fpm's own configuration less an rlock installed system-wide (phpini.sh): it runs
	# the extension given here, not the installed one
	rlock_ini_copy "$STACK_FPM_BIN" "$ini"
	local fpm=(env "PHPRC=$ini/php.ini" "PHP_INI_SCAN_DIR=$ini/conf.d" "$STACK_FPM_BIN")
	if "${fpm[@]}" -m 2>/dev/null | grep -qx rlock; then
		stack_log "php-fpm loads rlock from a configuration phpini.sh does not filter"
		stack_stop
		return 1
	fi
	stack_spawn php-fpm "${fpm[@]}" "${root_flag[@]}" "${extension[@]}" "${more[@]}" \
		-y "$STACK_DIR/php-fpm.conf" -p "$STACK_DIR"

	mkdir -p "$STACK_DIR/nginx"
	local user_line=""
	[ "$(id -u)" = 0 ] && user_line="user root;"
	cat >"$STACK_DIR/nginx.conf" <<-EOF
		$user_line
		worker_processes 2;
		worker_rlimit_nofile 16384;
		pid $STACK_DIR/nginx.master.pid;
		error_log $STACK_DIR/nginx-error.log warn;
		events { worker_connections 4096; }
		http {
		    access_log off;
		    default_type application/json;
		    client_body_temp_path $STACK_DIR/nginx/body;
		    fastcgi_temp_path $STACK_DIR/nginx/fastcgi;
		    proxy_temp_path $STACK_DIR/nginx/proxy;
		    uwsgi_temp_path $STACK_DIR/nginx/uwsgi;
		    scgi_temp_path $STACK_DIR/nginx/scgi;
		    keepalive_requests 100000;
		    server {
		        listen 127.0.0.1:$STACK_NGINX_PORT backlog=1024;
		        root $public;
		        location = /fpm-status { fastcgi_pass unix:$STACK_FPM_SOCK; include $STACK_DIR/fastcgi.conf; }
		        # the status page (examples/status/): the pool's lock statistics, live
		        location = /status/ { rewrite ^ /status/index.php last; }
		        location ~ ^/status/[a-z_]+\.php\$ {
		            root $STACK_REPO/examples;
		            fastcgi_pass unix:$STACK_FPM_SOCK;
		            include $STACK_DIR/fastcgi.conf;
		        }
		        location ~ ^/[a-z_]+\.php\$ {
		            fastcgi_pass unix:$STACK_FPM_SOCK;
		            fastcgi_read_timeout 60s;
		            include $STACK_DIR/fastcgi.conf;
		        }
		    }
		}
	EOF
	cat >"$STACK_DIR/fastcgi.conf" <<-'EOF'
		fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name;
		fastcgi_param SCRIPT_NAME $fastcgi_script_name;
		fastcgi_param QUERY_STRING $query_string;
		fastcgi_param REQUEST_METHOD $request_method;
		fastcgi_param CONTENT_TYPE $content_type;
		fastcgi_param CONTENT_LENGTH $content_length;
		fastcgi_param REQUEST_URI $request_uri;
		fastcgi_param DOCUMENT_ROOT $document_root;
		fastcgi_param SERVER_PROTOCOL $server_protocol;
		fastcgi_param GATEWAY_INTERFACE CGI/1.1;
		fastcgi_param REMOTE_ADDR $remote_addr;
		fastcgi_param REMOTE_PORT $remote_port;
		fastcgi_param SERVER_ADDR $server_addr;
		fastcgi_param SERVER_PORT $server_port;
		fastcgi_param SERVER_NAME $server_name;
	EOF
	stack_spawn nginx "$STACK_NGINX_BIN" -e "$STACK_DIR/nginx-error.log" \
		-c "$STACK_DIR/nginx.conf" -p "$STACK_DIR/nginx" -g 'daemon off;'

	stack_wait_tcp "$STACK_LOCK_PORT" 10 || { stack_log "redis (lock) did not start"; stack_stop; return 1; }
	stack_wait_tcp "$STACK_SHOP_PORT" 10 || { stack_log "redis (shop) did not start"; stack_stop; return 1; }
	stack_wait_file "$STACK_FPM_SOCK" 10 || {
		stack_log "php-fpm did not start:"; cat "$STACK_DIR/php-fpm.log" "$STACK_DIR/php-fpm.out" >&2
		stack_stop; return 1
	}
	stack_wait_tcp "$STACK_NGINX_PORT" 10 || {
		stack_log "nginx did not start:"; cat "$STACK_DIR/nginx-error.log" "$STACK_DIR/nginx.out" >&2
		stack_stop; return 1
	}

	STACK_FPM_PID=$(cat "$STACK_DIR/php-fpm.pid")
	{
		echo "STACK_DIR=$STACK_DIR"
		echo "STACK_URL=$STACK_URL"
		echo "STACK_NGINX_PORT=$STACK_NGINX_PORT"
		echo "STACK_LOCK_PORT=$STACK_LOCK_PORT"
		echo "STACK_SHOP_PORT=$STACK_SHOP_PORT"
		echo "STACK_LOCK_REDIS=$STACK_LOCK_REDIS"
		echo "STACK_SHOP_REDIS=$STACK_SHOP_REDIS"
		echo "STACK_FPM_SOCK=$STACK_FPM_SOCK"
		echo "STACK_FPM_PID=$STACK_FPM_PID"
		echo "STACK_WORKERS=$workers"
		echo "STACK_MAX_REQUESTS=$max_requests"
		echo "STACK_TERMINATE=$terminate"
		echo "STACK_RLOCK_SO=$([ -f "$so" ] && echo "$so")"
	} >"$STACK_DIR/stack.env"
	export STACK_DIR STACK_URL STACK_NGINX_PORT STACK_LOCK_PORT STACK_SHOP_PORT \
		STACK_LOCK_REDIS STACK_SHOP_REDIS STACK_FPM_SOCK STACK_FPM_PID STACK_WORKERS STACK_MAX_REQUESTS \
		STACK_TERMINATE
}

# stack_stop [DIR]: TERM every process the stack started (KILL after 5 s, the php-fpm and
# nginx workers too), remove DIR. Safe under set -e; always returns 0 for a stack dir.
stack_stop() {
	local dir=${1:-${STACK_DIR:-}} name pid left child
	local names=(nginx php-fpm redis-lock redis-shop)
	[ -n "$dir" ] && [ -d "$dir" ] || return 0
	case $(basename "$dir") in rlock-seckill.*) ;; *) stack_log "not a stack dir: $dir"; return 1 ;; esac
	for name in "${names[@]}"; do
		pid=$(cat "$dir/$name.pid" 2>/dev/null) || continue
		kill -TERM "$pid" 2>/dev/null || true
	done
	for _ in $(seq 50); do
		left=0
		for name in "${names[@]}"; do
			pid=$(cat "$dir/$name.pid" 2>/dev/null) || continue
			if kill -0 "$pid" 2>/dev/null; then left=1; fi
		done
		[ "$left" = 0 ] && break
		sleep 0.1
	done
	if [ "$left" = 1 ]; then
		for name in "${names[@]}"; do
			pid=$(cat "$dir/$name.pid" 2>/dev/null) || continue
			kill -0 "$pid" 2>/dev/null || continue
			for child in $(ps -o pid= --ppid "$pid" 2>/dev/null); do
				kill -KILL "$child" 2>/dev/null || true
			done
			kill -KILL "$pid" 2>/dev/null || true
		done
	fi
	rm -rf "$dir"
	if [ "$dir" = "${STACK_DIR:-}" ]; then STACK_DIR=; fi
	return 0
}

# Executed rather than sourced: a small command line for other languages (the PHPUnit test).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	case ${1:-} in
	start)
		stack_start || exit 1
		cat "$STACK_DIR/stack.env"
		;;
	stop)
		[ -n "${2:-}" ] || { echo "usage: $0 stop DIR" >&2; exit 2; }
		stack_stop "$2"
		;;
	*)
		echo "usage: $0 start | stop DIR" >&2
		exit 2
		;;
	esac
fi
