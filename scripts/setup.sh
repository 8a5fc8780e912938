#!/usr/bin/env bash
# Install everything the project needs on a Debian 12 (bookworm) machine.
#
# Idempotent: packages already present are skipped, and apt is only asked
# when something is missing.  Needs root (uses sudo when not root).
#
#   scripts/setup.sh          install what is missing
#   scripts/setup.sh --check  only report what is missing (exit 1 if anything)
. "$(dirname "$0")/lib/common.sh"

# Host packages: cross compiler, kernel build deps, QEMU build deps, tools.
HOST_PKGS=(
	build-essential gcc-arm-linux-gnueabi binutils-arm-linux-gnueabi libc6-dev-armel-cross
	bc bison flex libssl-dev cpio xz-utils kmod rsync git python3 dpkg-dev file
	linux-source-6.1
	meson ninja-build pkg-config libglib2.0-dev libpixman-1-dev zlib1g-dev libfdt-dev
	device-tree-compiler util-linux
	python3-ply python3-git
	libjpeg-turbo-progs libjpeg62-turbo-dev
	libattr1-dev libcap-ng-dev # QEMU's virtfs (9p): boot.sh --share
	python3-matplotlib
)

check=0
case "${1:-}" in
--check) check=1 ;;
-h | --help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
"") ;;
*) s5p_die "unknown option '$1' (try --help)" ;;
esac

missing=()
for p in "${HOST_PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

have_armel=0
dpkg --print-foreign-architectures | grep -qx armel && have_armel=1

have_src=0
if grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
	have_src=1
fi

# The package lists apt has fetched: an earlier run may have added the
# deb-src lines and the armel architecture and then failed at 'apt-get
# update'; that run must be retried, not taken as done.
have_lists=1
ls /var/lib/apt/lists/*_Sources* >/dev/null 2>&1 || have_lists=0
ls /var/lib/apt/lists/*binary-armel_Packages* >/dev/null 2>&1 || have_lists=0

if [ $check = 1 ]; then
	rc=0
	[ ${#missing[@]} -eq 0 ] || { echo "missing packages: ${missing[*]}"; rc=1; }
	[ $have_armel = 1 ] || { echo "dpkg architecture armel not added"; rc=1; }
	[ $have_src = 1 ] || { echo "no deb-src lines in the apt sources"; rc=1; }
	[ $have_lists = 1 ] || { echo "apt has no source or armel package lists yet ('apt-get update' never succeeded)"; rc=1; }
	[ $rc = 0 ] && echo "setup complete"
	exit $rc
fi

need_update=0
if [ $have_src = 0 ]; then
	s5p_log "adding deb-src lines (needed by 'apt-get source qemu')"
	if [ -f /etc/apt/sources.list.d/debian.sources ]; then
		sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources |
			s5p_sudo tee /etc/apt/sources.list.d/s5pv210-cma-src.sources >/dev/null
	elif [ -f /etc/apt/sources.list ]; then
		sed -n 's/^deb \(.*\)$/deb-src \1/p' /etc/apt/sources.list |
			s5p_sudo tee /etc/apt/sources.list.d/s5pv210-cma-src.list >/dev/null
	else
		s5p_die "cannot find the apt sources to derive deb-src lines from; add deb-src lines for bookworm by hand"
	fi
	need_update=1
fi
if [ $have_armel = 0 ]; then
	s5p_log "adding the armel architecture (busybox-static:armel and v4l-utils:armel for the guest)"
	s5p_sudo dpkg --add-architecture armel
	need_update=1
fi
[ ${#missing[@]} -eq 0 ] || need_update=1
[ $have_lists = 1 ] || need_update=1

if [ $need_update = 1 ]; then
	s5p_log "apt-get update"
	# Retried: a mirror may be briefly unreachable.
	tries=0
	until s5p_sudo apt-get update; do
		tries=$((tries + 1))
		[ $tries -lt 3 ] ||
			s5p_die "apt-get update failed 3 times: is the Debian archive reachable? (check the network or proxy, then rerun scripts/setup.sh)"
		s5p_info "apt-get update failed; trying again in $((tries * 10)) s"
		sleep $((tries * 10))
	done
fi
if [ ${#missing[@]} -gt 0 ]; then
	s5p_log "installing ${#missing[@]} packages: ${missing[*]}"
	if ! s5p_sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"; then
		s5p_die "apt-get install failed (see above); fix the apt problem and rerun scripts/setup.sh"
	fi
fi
s5p_log "setup complete"
