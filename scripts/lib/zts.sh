# A thread-safe (ZTS) PHP, as FrankenPHP and Swoole threads run: built from the Debian source
# package of the PHP the scripts use (rlock_php) into a cache folder outside the clone
# (RLOCK_ZTS, /var/cache/rlock/zts/php8.2), once, and reused when present. Minimal: the CLI
# and the embed SAPI (libphp.so, which tests/zts/harness.c drives from threads), with only
# the extensions the phpt suite calls. Sourced by scripts/test.sh after deps.sh.
#
#   rlock_zts_make   the cache's path (bin/php, bin/php-config, bin/phpize, lib/libphp.so),
#                    built when missing

RLOCK_ZTS=${RLOCK_ZTS:-/var/cache/rlock/zts}
# How it is configured (--prefix aside): a cache made otherwise is made again. The extensions
# the phpt suite calls: pcntl and posix (forks), session (save handlers), openssl (a TLS
# server of test 521).
RLOCK_ZTS_CONFIGURE="--enable-zts --enable-embed --disable-all --disable-cgi --disable-phpdbg --without-pear
	--enable-pcntl --enable-posix --enable-session --with-openssl"

# rlock_zts_sources: a deb-src entry for each Debian archive and suite the host's apt has a
# deb entry for (the same suites: a source from another suite than the binaries would not be
# the PHP the host runs), in a file of its own, then apt-get update. Through sudo unless root.
rlock_zts_sources() {
	local list=/etc/apt/sources.list.d/rlock-zts-src.list lines sudo=()
	[ -f "$list" ] && return 0
	# one-line entries, and deb822 stanzas (Types/URIs/Suites/Components) flattened to one line
	lines=$(
		{
			sed -nE 's/^deb[[:space:]]+/deb-src /p' /etc/apt/sources.list 2>/dev/null
			for f in /etc/apt/sources.list.d/*.list; do
				[ -f "$f" ] && sed -nE 's/^deb[[:space:]]+/deb-src /p' "$f"
			done
			for f in /etc/apt/sources.list.d/*.sources; do
				[ -f "$f" ] && awk '
					function flush() {
						if (types ~ /(^| )deb( |$)/ && uris != "" && suites != "")
							for (i = 1; i <= split(uris, u, " "); i++)
								for (j = 1; j <= split(suites, s, " "); j++)
									printf "deb-src %s%s %s %s\n", signed, u[i], s[j], comps
						types = uris = suites = comps = signed = ""
					}
					/^[[:space:]]*$/ { flush(); next }
					/^Types:/ { sub(/^Types:[[:space:]]*/, ""); types = $0 }
					/^URIs:/ { sub(/^URIs:[[:space:]]*/, ""); uris = $0 }
					/^Suites:/ { sub(/^Suites:[[:space:]]*/, ""); suites = $0 }
					/^Components:/ { sub(/^Components:[[:space:]]*/, ""); comps = $0 }
					/^Signed-By:[[:space:]]*\// { sub(/^Signed-By:[[:space:]]*/, ""); signed = "[signed-by=" $0 "] " }
					END { flush() }' "$f"
			done
		} | grep -E '[[:space:]]https?://[^[:space:]]+/debian(-security)?/?[[:space:]]' | sort -u
	)
	[ -n "$lines" ] || { echo "zts: no Debian archive in /etc/apt" >&2; return 1; }
	[ "$(id -u)" = 0 ] || sudo=(sudo)
	printf '%s\n' "# rlock's ZTS build (scripts/lib/zts.sh): apt-get source php" "$lines" \
		| "${sudo[@]}" tee "$list" >/dev/null
	"${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600 update -q >/dev/null
}

# rlock_zts_make: the path of the ZTS build, made when missing. Built in a temporary folder,
# installed under it (INSTALL_ROOT) and renamed into place when complete: a run killed
# half-way leaves no half build. The prefix is the final path (php-config names it). Call it
# in a subshell ($(...)): it holds a lock on fd 8 until that ends.
rlock_zts_make() {
	local v prefix tmp
	v=$(rlock_php)
	prefix="$RLOCK_ZTS/php$v"
	mkdir -p "$RLOCK_ZTS"
	# one build at a time: a second run waits for the first's and takes it
	exec 8> "$RLOCK_ZTS/.php$v.lock"
	flock 8
	if [ -x "$prefix/bin/php" ] && [ -f "$prefix/lib/libphp.so" ] \
		&& [ "$(cat "$prefix/configure.txt" 2>/dev/null)" = "$RLOCK_ZTS_CONFIGURE" ]; then
		echo "$prefix"
		return
	fi
	# (in a command substitution set -e is off: each failure must end here)
	rlock_install dpkg-dev autoconf libtool pkg-config libssl-dev >&2 || return 1
	rlock_zts_sources >&2 || return 1
	rm -rf "$RLOCK_ZTS/.php$v".*
	tmp=$(mktemp -d "$RLOCK_ZTS/.php$v.XXXXXX")
	echo "zts: building a ZTS PHP $v from Debian's php$v source into $prefix (once; reused after; log $tmp.log)" >&2
	if ! (rlock_zts_build "$v" "$tmp" "$prefix") > "$tmp.log" 2>&1; then
		tail -n 30 "$tmp.log" >&2
		rm -rf "$tmp"
		return 1
	fi
	rm -rf "$prefix"
	mv "$tmp/root$prefix" "$prefix"
	rm -rf "$tmp" "$tmp.log"
	echo "$prefix"
}

# rlock_zts_build V DIR PREFIX: Debian's php V source fetched into DIR, configured for PREFIX,
# built and installed under DIR/root. The newest version apt offers that the mirror serves
# (a security archive's mirror may not serve its sources): versions tried newest first.
rlock_zts_build() {
	local v=$1 dir=$2 prefix=$3 ver src=""
	cd "$dir" || return 1
	# apt-get source drops to _apt to download when it can: the folder must let it write
	chmod 777 "$dir"
	for ver in $(apt-cache showsrc "php$v" | sed -nE 's/^Version: (.*)/\1/p' | sort -ruV); do
		if apt-get source -q "php$v=$ver"; then
			src=php$v-${ver%%-*}
			break
		fi
	done
	if [ -z "$src" ] || [ ! -d "$src" ]; then
		echo "zts: apt-get source php$v failed" >&2
		return 1
	fi
	cd "$src" || return 1
	# Debian's patches change configure's m4: configure made again from them
	./buildconf --force || return 1
	# shellcheck disable=SC2086
	./configure --prefix="$prefix" $RLOCK_ZTS_CONFIGURE CFLAGS="-O2 -g" || return 1
	make -j"$(nproc)" || return 1
	make install INSTALL_ROOT="$dir/root" || return 1
	# Debian's patches install libphp.so in lib/php: named in lib as upstream installs it
	[ -f "$dir/root$prefix/lib/libphp.so" ] || ln -s php/libphp.so "$dir/root$prefix/lib/libphp.so"
	# and their phpize takes libtool's and pkg-config's m4 from PREFIX/share/aclocal: the system's
	if [ ! -d "$dir/root$prefix/share/aclocal" ]; then
		mkdir -p "$dir/root$prefix/share"
		ln -s /usr/share/aclocal "$dir/root$prefix/share/aclocal"
	fi
	[ -x "$dir/root$prefix/bin/php" ] && [ -x "$dir/root$prefix/bin/php-config" ] && [ -f "$dir/root$prefix/lib/libphp.so" ] || return 1
	printf '%s' "$RLOCK_ZTS_CONFIGURE" > "$dir/root$prefix/configure.txt"
}
