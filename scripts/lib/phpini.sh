# The PHP configuration the scripts run PHP under: the machine's, less rlock. Where rlock is
# also installed system-wide (an `extension=rlock.so` in php.ini or in an ini of conf.d),
# `php -d extension=modules/rlock.so` would warn "Module rlock is already loaded" and run the
# installed copy, not the one just built; and an installed `rlock.server = ...` would change
# the defaults the tests expect. Sourced by scripts/lib/deps.sh and scripts/lib/stack.sh.

# rlock_ini_filter: stdin to stdout without the lines that load rlock or set rlock.*.
rlock_ini_filter() {
	sed -E -e '/^[[:space:]]*(zend_)?extension[[:space:]]*=[[:space:]]*["'\'']?([^"'\'';]*\/)?rlock(\.so)?["'\'']?[[:space:]]*(;.*)?$/Id' \
		-e '/^[[:space:]]*rlock\./d'
}

# rlock_ini_own CMD...: CMD with the PHPRC and PHP_INI_SCAN_DIR the caller had before
# rlock_ini_use set its own.
rlock_ini_own() {
	if [ -n "${RLOCK_INI_DIR:-}" ]; then
		env -u PHPRC -u PHP_INI_SCAN_DIR ${RLOCK_INI_PHPRC:+"PHPRC=$RLOCK_INI_PHPRC"} \
			${RLOCK_INI_SCAN:+"PHP_INI_SCAN_DIR=$RLOCK_INI_SCAN"} "$@"
	else
		"$@"
	fi
}

# rlock_ini_copy BIN DIR: DIR/php.ini and DIR/conf.d/, a copy of what BIN (php, php-fpm8.2)
# reads by itself -- its php.ini and the .ini files it scans, in their order -- through
# rlock_ini_filter: every other extension (redis, pcntl, posix, sockets, opcache...) and
# setting stays. PHPRC=DIR/php.ini PHP_INI_SCAN_DIR=DIR/conf.d make BIN read the copy.
rlock_ini_copy() {
	local bin=$1 dir=$2 kind file n=0
	rm -rf "$dir"
	mkdir -p "$dir/conf.d"
	: >"$dir/php.ini"
	while read -r kind file; do
		[ -f "$file" ] || continue
		if [ "$kind" = ini ]; then
			rlock_ini_filter <"$file" >"$dir/php.ini"
		else
			n=$((n + 1))
			rlock_ini_filter <"$file" >"$dir/conf.d/$(printf %03d "$n")-${file##*/}"
		fi
	done < <(rlock_ini_own "$bin" -i 2>/dev/null | awk '
		/^Loaded Configuration File => / { sub(/^[^>]*=> /, ""); print "ini " $0 }
		/^Additional \.ini files parsed => / { sub(/^[^>]*=> /, ""); scanned = 1 }
		scanned { f = $0; sub(/,$/, "", f); print "scan " f; if ($0 !~ /,$/) scanned = 0 }')
}

# rlock_ini_use DIR: from here on php, and every php it starts (PHPUnit's children, run-tests),
# reads the copy of rlock_ini_copy made in DIR; the scripts load the module they test with
# -d extension=. Fails if php still loads rlock without being told to.
rlock_ini_use() {
	if [ -z "${RLOCK_INI_DIR:-}" ]; then
		export RLOCK_INI_PHPRC=${PHPRC:-} RLOCK_INI_SCAN=${PHP_INI_SCAN_DIR:-}
	fi
	rlock_ini_copy php "$1" || return 1
	export RLOCK_INI_DIR=$1 PHPRC=$1/php.ini PHP_INI_SCAN_DIR=$1/conf.d
	if php -r 'exit(extension_loaded("rlock") ? 0 : 1);' 2>/dev/null; then
		echo "php loads rlock from a configuration rlock_ini_copy does not filter: $(php --ini | tr '\n' ' ')" >&2
		return 1
	fi
}
