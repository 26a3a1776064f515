# Swoole (the coroutine runtime of tests/phpunit/SwooleTest.php and examples/swoole), built
# from its source tarball into a cache folder outside the clone (RLOCK_SWOOLE_CACHE,
# /var/cache/rlock/swoole/<php version>/swoole.so) and reused when present, as root.sh keeps
# the Debian 13 root. The project vendors nothing: the tarball is RLOCK_SWOOLE_TARBALL, else
# swoole-src-6.2.2.tar.gz in ../shared/vendor beside the clone. Sourced after deps.sh.
#
#   rlock_swoole_so      the path of swoole.so, built when missing (about 10-20 minutes)
#   rlock_swoole_cached  the path of swoole.so when the cache has it (nothing built)

RLOCK_SWOOLE_VERSION=6.2.2
RLOCK_SWOOLE_CACHE=${RLOCK_SWOOLE_CACHE:-/var/cache/rlock/swoole}

# rlock_swoole_tarball: the source tarball's path, or nothing.
rlock_swoole_tarball() {
	local top f
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	for f in "${RLOCK_SWOOLE_TARBALL:-}" "$top/../shared/vendor/swoole-src-$RLOCK_SWOOLE_VERSION.tar.gz" \
		"$top/../../shared/vendor/swoole-src-$RLOCK_SWOOLE_VERSION.tar.gz"; do
		[ -n "$f" ] && [ -f "$f" ] && { echo "$f"; return 0; }
	done
	return 1
}

rlock_swoole_cached() {
	local so
	so="$RLOCK_SWOOLE_CACHE/$(rlock_php)/swoole.so"
	[ -f "$so" ] && echo "$so"
}

# rlock_swoole_so: build in a temporary folder of the cache renamed when complete (a build
# killed half-way leaves no half swoole.so); one build at a time (flock).
rlock_swoole_so() {
	local v dir tar tmp phpize=phpize config=() status=0
	v=$(rlock_php)
	dir="$RLOCK_SWOOLE_CACHE/$v"
	if [ -f "$dir/swoole.so" ]; then
		echo "$dir/swoole.so"
		return 0
	fi
	tar=$(rlock_swoole_tarball) || {
		echo "swoole: no swoole-src-$RLOCK_SWOOLE_VERSION.tar.gz (set RLOCK_SWOOLE_TARBALL)" >&2
		return 1
	}
	rlock_install "php$v-dev" g++ >&2 || return 1
	if command -v "phpize$v" >/dev/null; then
		phpize=phpize$v config=(--with-php-config="php-config$v")
	fi
	mkdir -p "$RLOCK_SWOOLE_CACHE"
	(
		exec 9> "$RLOCK_SWOOLE_CACHE/.lock"
		flock 9
		[ -f "$dir/swoole.so" ] && exit 0   # built by a parallel run meanwhile
		rm -rf "$RLOCK_SWOOLE_CACHE/.$v".*
		tmp=$(mktemp -d "$RLOCK_SWOOLE_CACHE/.$v.XXXXXX")
		echo "swoole: building $RLOCK_SWOOLE_VERSION for PHP $v into $dir (once; reused after)" >&2
		# (the tarball's files at its top, or in one folder: GitHub's archives)
		if ! (cd "$tmp" && tar -xzf "$tar" && { [ -f config.m4 ] || cd ./*/; } \
			&& "$phpize" && ./configure --disable-brotli --disable-zstd "${config[@]}" \
			&& make -j"$(nproc)") > "$tmp.log" 2>&1; then
			tail -n 30 "$tmp.log" >&2
			rm -rf "$tmp" "$tmp.log"
			exit 1
		fi
		mkdir -p "$dir"
		cp "$(find "$tmp" -path "*/modules/swoole.so" | head -n 1)" "$dir/swoole.so.tmp" && mv "$dir/swoole.so.tmp" "$dir/swoole.so"
		rm -rf "$tmp" "$tmp.log"
	) >&2 || status=$?
	[ "$status" -eq 0 ] && [ -f "$dir/swoole.so" ] || return 1
	echo "$dir/swoole.so"
}
