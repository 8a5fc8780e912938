# shellcheck shell=bash
# Common helpers for the S5PV210 CMA project scripts.  Sourced, not run.

set -o pipefail

S5P_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# Everything downloaded or built lives here, never in the checkout.
S5P_CACHE=${S5P_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/s5pv210-cma}
export S5P_TOP S5P_CACHE

s5p_log()  { printf '==> %s\n' "$*" >&2; }
s5p_info() { printf '    %s\n' "$*" >&2; }
s5p_die()  { printf 'error: %s\n' "$*" >&2; exit 1; }

# Run a command with root rights (we may already be root).
s5p_sudo() {
	if [ "$(id -u)" = 0 ]; then "$@"
	elif command -v sudo >/dev/null; then sudo "$@"
	else s5p_die "need root for: $* (install sudo or run scripts/setup.sh as root)"
	fi
}

# s5p_hash FILE|DIR|-s STRING ...: one hash over everything that goes into a step.
s5p_hash() {
	{
		while [ $# -gt 0 ]; do
			if [ "$1" = -s ]; then printf 'str:%s\n' "$2"; shift 2; continue; fi
			if [ -d "$1" ]; then
				(cd "$1" && find . -type f ! -name '*~' -print0 | LC_ALL=C sort -z |
					xargs -0r sha256sum)
			elif [ -e "$1" ]; then
				printf 'file:%s\n' "${1#"$S5P_TOP"/}"; sha256sum <"$1"
			else
				printf 'missing:%s\n' "$1"
			fi
			shift
		done
	} | sha256sum | cut -c1-16
}

# Serialise the heavy steps: two kernel or QEMU builds never run at once on
# this machine, whatever cache directory they use.
S5P_BUILD_LOCK=${S5P_BUILD_LOCK:-/tmp/s5pv210-cma-build.lock}
s5p_build_lock() {
	exec 9>>"$S5P_BUILD_LOCK"
	if ! flock -n 9; then
		s5p_log "waiting for another build to finish (lock $S5P_BUILD_LOCK)"
		flock 9
	fi
}
s5p_build_unlock() { exec 9>&-; }

s5p_need_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null ||
			s5p_die "'$c' is missing; run scripts/setup.sh (installs every package the project needs)"
	done
}

# Version of an installed Debian package, or empty.
s5p_pkg_version() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null; }

# What counts as a kernel report in a console log: BUG (KASAN, sleeping in
# atomic, spinlock, SLUB's "BUG kmalloc-64 (Not tainted): ..."), WARNING
# (WARN_ON, lockdep, DEBUG_LIST, refcount), Oops, panics, UBSAN, DMA-API
# debugging, debug objects, kmemleak's unreferenced objects, hung tasks and
# RCU stalls.  kmemleak: the objects /init prints after its last scan
# ("unreferenced object 0x..."), not kmemleak's own "N new suspected memory
# leaks" line, which its first scans may print for objects an RCU callback
# frees a moment later (rootfs/init, kmemleak_scan).
S5P_REPORT_RE='BUG:|BUG [^ ]+ \((Not t|T)ainted\)|WARNING:|Oops|Unable to handle|Kernel panic|UBSAN:|DMA-API: ([^ ]+ [^ ]+: |debugging out of memory|cacheline tracking)|ODEBUG: |unreferenced object 0x|INFO: task .* blocked|rcu: INFO:|detected stall|cut here'

# s5p_kernel_reports LOG: print the report lines of a console log (none:
# exit status 1, like grep).
s5p_kernel_reports() {
	grep -aE "$S5P_REPORT_RE" "$1"
}
