# Other Debian releases on a Debian host: a minimal root made by debootstrap, kept in a cache
# folder outside the clone (RLOCK_ROOTS, /var/cache/rlock/roots) and reused when present, in
# which a copy of the tree runs scripts/test.sh, whose apt-get installs go into the root.
# Needs root (debootstrap, mount, chroot). Sourced by scripts/test.sh after deps.sh.
#
#   rlock_root_run debian13 ARGS...   Debian 13 (trixie)
#   rlock_root_run php85 ARGS...      Debian unstable with experimental's php8.5 (RLOCK_PHP=8.5):
#                                     it needs libraries trixie does not have (libxml2-16)
#
# The servers the tests start in the root share the host's network: they bind free
# 127.0.0.1 ports as on the host.

RLOCK_ROOTS=${RLOCK_ROOTS:-/var/cache/rlock/roots}

# rlock_root_mirror: RLOCK_MIRROR, else the Debian archive the host's apt uses.
rlock_root_mirror() {
	if [ -n "${RLOCK_MIRROR:-}" ]; then
		echo "$RLOCK_MIRROR"
		return
	fi
	cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
		| sed -nE 's,^(URIs:|deb)[[:space:]]+(\[[^]]*\][[:space:]]+)?([^[:space:]]+/debian)/?([[:space:]].*)?$,\3,p' \
		| head -n 1
}

# rlock_root_make NAME: the path of root NAME, made when missing. debootstrap works in a
# temporary folder renamed when complete: a run killed half-way leaves no half root.
rlock_root_make() {
	local name=$1 root="$RLOCK_ROOTS/$1" mirror tmp suite=trixie
	[ "$name" = php85 ] && suite=sid
	if [ -x "$root/usr/bin/apt-get" ]; then
		echo "$root"
		return
	fi
	mirror=$(rlock_root_mirror)
	[ -n "$mirror" ] || { echo "root: no Debian mirror in /etc/apt (set RLOCK_MIRROR)" >&2; return 1; }
	# (in a command substitution set -e is off: a failed install must end here)
	rlock_install debootstrap >&2 || return 1
	mkdir -p "$RLOCK_ROOTS"
	rm -rf "$RLOCK_ROOTS/.$name".*
	tmp=$(mktemp -d "$RLOCK_ROOTS/.$name.XXXXXX")
	chmod 755 "$tmp"   # the root of a system: apt drops to _apt, which must get in
	echo "root: debootstrap $suite into $root (once; reused after)" >&2
	if ! debootstrap --variant=minbase "$suite" "$tmp" "$mirror" > "$tmp.log" 2>&1; then
		tail -n 20 "$tmp.log" >&2
		rm -rf "$tmp" "$tmp.log"
		return 1
	fi
	rm -f "$tmp.log"
	if [ "$name" = php85 ]; then
		# experimental's php8.5 over unstable: only the php8.5 packages come from experimental
		# (a mirror's unstable and experimental Release files can be past their Valid-Until)
		printf 'deb [check-valid-until=no] %s %s main\n' "$mirror" sid "$mirror" experimental \
			> "$tmp/etc/apt/sources.list"
		printf 'Package: php8.5*\nPin: release a=experimental\nPin-Priority: 990\n' \
			> "$tmp/etc/apt/preferences.d/php85"
	fi
	mv "$tmp" "$root"
	echo "$root"
}

# rlock_root_run NAME ARGS...: bash scripts/test.sh ARGS in a copy of the tracked files in
# root NAME, bind-mounted on itself, with /proc, /sys, /dev, /dev/pts and /dev/shm mounted;
# every mount undone and every process left in the root stopped however the run ends. One
# run at a time per root.
rlock_root_run() {
	local name=$1 root env log status=0 passed=0 failed=0 runs=0 p f
	shift
	log=$(mktemp)
	root=$(rlock_root_make "$name") || return 1
	env=(HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
		LANG=C.UTF-8 TERM=dumb CI="${CI:-}")
	[ "$name" = php85 ] && env+=(RLOCK_PHP=8.5)
	(
		exec 9> "$root.lock"
		flock 9
		trap 'rlock_root_down "$root"' EXIT
		trap 'exit 143' TERM INT
		rm -rf "$root/rlock"
		mkdir -p "$root/rlock"
		git ls-files -z | xargs -0 cp --parents -t "$root/rlock"
		# a repository of its own: the release check and the sanitizer builds list its files
		git -C "$root/rlock" init -q && git -C "$root/rlock" add -A
		cp /etc/resolv.conf "$root/etc/resolv.conf"
		# debootstrap writes no hosts file: localhost would not resolve (phpt 031)
		[ -s "$root/etc/hosts" ] || printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n' > "$root/etc/hosts"
		# the root a mount point of its own: ip netns exec remounts / (NetworkTest)
		mount --bind "$root" "$root"
		mount -t proc proc "$root/proc"
		mount -t sysfs sys "$root/sys"
		mount --bind /dev "$root/dev"
		mount --bind /dev/pts "$root/dev/pts"
		mount --bind /dev/shm "$root/dev/shm"
		# shellcheck disable=SC2016
		chroot "$root" /usr/bin/env -i "${env[@]}" bash -c '
			cd /rlock
			status=0
			for mode in "$@"; do
				echo "=== $(. /etc/os-release; echo "$PRETTY_NAME"): scripts/test.sh $mode"
				bash scripts/test.sh "$mode" || status=1
			done
			exit $status' root "$@" || exit $?
		exit 0   # an explicit exit: the status is not the EXIT trap's last command's
	) 2>&1 | tee "$log" || status=$?
	# one closing line over the runs: "rlock: N passed, N failed"
	while read -r p f; do
		passed=$((passed + p)) failed=$((failed + f)) runs=$((runs + 1))
	done < <(sed -nE 's/^rlock: ([0-9]+) passed, ([0-9]+) failed$/\1 \2/p' "$log")
	rm -f "$log"
	[ "$runs" -eq $# ] || status=1
	[ "$status" -eq 0 ] || [ "$failed" -gt 0 ] || failed=1
	echo "rlock: $passed passed, $failed failed"
	return "$status"
}

# rlock_root_down ROOT: stop every process whose root is ROOT, undo every mount in it.
rlock_root_down() {
	local root=$1 f pid left=() m
	for f in /proc/[0-9]*/root; do
		[ "$(readlink "$f" 2>/dev/null)" = "$root" ] || continue
		pid=${f#/proc/}
		left+=("${pid%/root}")
	done
	[ ${#left[@]} -eq 0 ] || kill -KILL "${left[@]}" 2>/dev/null || true
	# ours, and any a test left (ip netns add mounts under the root's /run/netns): deepest first
	while read -r m; do
		if ! umount "$m" 2>/dev/null; then
			echo "root: $m busy, detached (umount -l)" >&2
			umount -l "$m" || true
		fi
	done < <(awk -v r="$root" '$2 == r || index($2, r "/") == 1 { print $2 }' /proc/mounts | sort -r)
	return 0
}
