# shellcheck shell=bash
# Common helpers for the S5PV210 CMA project scripts.  Sourced, not run.

set -o pipefail

S5P_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# Everything downloaded or built lives here, never in the checkout.
S5P_CACHE=${S5P_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/s5pv210-cma}
export S5P_TOP S5P_CACHE

s5p_log()  { printf '==> %s\n' "$*" >&2; }
# The identity of the project's patches (From: and Signed-off-by: of
# kernel-patches/ and qemu-patches/; scripts/series.sh dev sets it in a dev tree).
# shellcheck disable=SC2034 # (scripts/series.sh's)
S5P_PATCH_NAME="S5PV210 CMA project"
# shellcheck disable=SC2034 # (scripts/series.sh's)
S5P_PATCH_EMAIL="cma@s5pv210-cma.org"
s5p_info() { printf '    %s\n' "$*" >&2; }
s5p_die()  { printf 'error: %s\n' "$*" >&2; exit 1; }

# Paths in the cache go into the initramfs lists (gen_init_cpio's lines are
# split at spaces) and into make's command lines (O=, M=: make splits at
# spaces and takes a colon for a rule): refused here, before any script
# (every entry point sources this file) writes anything there.
case "$S5P_CACHE" in
*[[:space:]:]*)
	s5p_die "S5P_CACHE='$S5P_CACHE' holds a space or a colon, which the build cannot take (make, the initramfs lists); set S5P_CACHE to a directory without them" ;;
esac

# Each build step says how long it took, so that the figures in docs/figures.md
# can be kept true: s5p_done START WHAT logs "WHAT: N s" (START
# from $(date +%s) when the step began); s5p_elapsed START prints the
# duration alone.
s5p_elapsed() {
	local t=$(($(date +%s) - $1))
	if [ $t -ge 60 ]; then printf '%s s (%d min %d s)\n' $t $((t / 60)) $((t % 60))
	else printf '%s s\n' $t
	fi
}
s5p_done() { s5p_log "$2: $(s5p_elapsed "$1")"; }

# Run a command with root rights (we may already be root).
s5p_sudo() {
	if [ "$(id -u)" = 0 ]; then "$@"
	elif command -v sudo >/dev/null; then sudo "$@"
	else s5p_die "need root for: $* (install sudo or run scripts/setup.sh as root)"
	fi
}

# s5p_hash FILE|DIR|-s STRING|-m DIR ...: one hash over everything that goes
# into a step.  A directory counts with its files' contents; "-m DIR" with
# their modes too (what goes into the initramfs).  Build output in a
# checkout is never an input: directories named build, *.o and editor
# backups (*~) are left out (.gitignore).
s5p_hash() {
	{
		while [ $# -gt 0 ]; do
			if [ "$1" = -s ]; then printf 'str:%s\n' "$2"; shift 2; continue; fi
			if [ "$1" = -m ]; then
				printf 'modes:%s\n' "${2#"$S5P_TOP"/}"
				(cd "$2" && s5p_source_files . | xargs -0r stat -c '%a %n')
				shift
			fi
			if [ -d "$1" ]; then
				(cd "$1" && s5p_source_files . | xargs -0r sha256sum)
			elif [ -e "$1" ]; then
				printf 'file:%s\n' "${1#"$S5P_TOP"/}"; sha256sum <"$1"
			else
				printf 'missing:%s\n' "$1"
			fi
			shift
		done
	} | sha256sum | cut -c1-16
}

# s5p_source_files DIR: the files of DIR that are sources, not build output
# (NUL-separated, sorted).
s5p_source_files() {
	find "$1" -type d -name build -prune -o -type f ! -name '*~' ! -name '*.o' -print0 |
		LC_ALL=C sort -z
}

# Serialise the heavy steps: two kernel or QEMU builds never run at once on
# this machine, whatever cache directory they use.  Reentrant: a step that
# holds it may call another that takes it.
S5P_BUILD_LOCK=${S5P_BUILD_LOCK:-/tmp/s5pv210-cma-build.lock}
S5P_BUILD_LOCK_DEPTH=0
s5p_build_lock() {
	if [ "$S5P_BUILD_LOCK_DEPTH" = 0 ]; then
		exec 9>>"$S5P_BUILD_LOCK"
		if ! flock -n 9; then
			local w
			w=$(date +%s)
			s5p_log "waiting for another build to finish (lock $S5P_BUILD_LOCK)"
			flock 9
			# (a step's time below includes this wait: say how long)
			s5p_log "the other build finished: waited $(($(date +%s) - w)) s"
		fi
	fi
	S5P_BUILD_LOCK_DEPTH=$((S5P_BUILD_LOCK_DEPTH + 1))
}
s5p_build_unlock() {
	S5P_BUILD_LOCK_DEPTH=$((S5P_BUILD_LOCK_DEPTH - 1))
	[ "$S5P_BUILD_LOCK_DEPTH" -gt 0 ] || { S5P_BUILD_LOCK_DEPTH=0; exec 9>&-; }
}

# A source tree in the cache and what is built from it are shared by every
# checkout using the cache: its unpacking, checkout and builds happen under
# one lock per tree (DIR/tree.lock), so no build compiles one series while
# its stamp records another.  Reentrant; taken before the build lock, never
# while holding it.  Another run waiting for it says so.
S5P_TREE_LOCK_DEPTH=0
s5p_tree_lock() {
	local dir=$1
	if [ "$S5P_TREE_LOCK_DEPTH" = 0 ]; then
		mkdir -p "$dir"
		exec 8>>"$dir/tree.lock"
		if ! flock -n 8; then
			s5p_log "waiting for another run using $dir (it is unpacking, checking out or building there; lock $dir/tree.lock)"
			flock 8
		fi
	fi
	S5P_TREE_LOCK_DEPTH=$((S5P_TREE_LOCK_DEPTH + 1))
}
s5p_tree_unlock() {
	S5P_TREE_LOCK_DEPTH=$((S5P_TREE_LOCK_DEPTH - 1))
	[ "$S5P_TREE_LOCK_DEPTH" -gt 0 ] || { S5P_TREE_LOCK_DEPTH=0; exec 8>&-; }
}

# A build directory's outputs and the runs that read them: a build holds
# DIR/.s5p-outputs.lock exclusively while it rewrites DIR's outputs (from
# removing its stamp to writing the new one), a reader holds it shared
# while it checks the stamp and copies what it needs: no run copies a
# half-written output, or one of another series, under a valid key.  Taken
# after the tree's and before the build lock; a reader takes no other lock
# while it holds it.  Not reentrant (fd 7).
s5p_outputs_lock() { # DIR -s|-x
	mkdir -p "$1"
	exec 7>>"$1/.s5p-outputs.lock"
	if ! flock -n "$2" 7; then
		s5p_log "waiting for another run writing $1 (lock $1/.s5p-outputs.lock)"
		flock "$2" 7
	fi
}
s5p_outputs_unlock() { exec 7>&-; }

# S5P_DRY_RUN=1 (boot.sh --dry-run): the build steps say what they would
# build, and build nothing.
S5P_WOULD_BUILD=0
s5p_would_build() {
	printf 'would build: %s\n' "$*"
	S5P_WOULD_BUILD=$((S5P_WOULD_BUILD + 1))
}

# s5p_apt_get ARGS...: apt-get for the project's downloads (download,
# source --download-only; never install or update), with a package cache
# of its own in $S5P_CACHE/apt.  Debian's container images turn apt's
# cache off (/etc/apt/apt.conf.d/docker-clean: Dir::Cache::pkgcache "")
# and keep the lists gzipped, so each call parsed every list again: 10-13 s
# on the 2-core machine, and a cold build made over 30 of them.  With the
# cache, 0.6 s after the first (apt rebuilds it when the lists change).
s5p_apt_get() {
	mkdir -p "$S5P_CACHE/apt" 2>/dev/null
	apt-get -o Dir::Cache::pkgcache="$S5P_CACHE/apt/pkgcache.bin" \
		-o Dir::Cache::srcpkgcache="$S5P_CACHE/apt/srcpkgcache.bin" "$@"
}
# s5p_apt_madison NAME...: "apt-cache madison NAME..." with that cache (the
# options after the command: 12-pipeline's stand-in apt-cache reads $1)
s5p_apt_madison() {
	mkdir -p "$S5P_CACHE/apt" 2>/dev/null
	apt-cache madison -o Dir::Cache::pkgcache="$S5P_CACHE/apt/pkgcache.bin" \
		-o Dir::Cache::srcpkgcache="$S5P_CACHE/apt/srcpkgcache.bin" "$@"
}

s5p_need_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null ||
			s5p_die "'$c' is missing; run scripts/setup.sh (installs every package the project needs)"
	done
}

# s5p_i386_runner: print what runs an i386 binary on this host: nothing
# when its kernel runs them (IA32 emulation), "qemu-i386" (user-mode QEMU,
# Debian's qemu-user) when it cannot, as in a VM whose kernel is built
# without it.  Status 1 when neither works.  Probed with a tiny program
# built by gcc -m32.  S5P_I386_RUNNER=native or =qemu-i386 forces one (to
# test the qemu-i386 path on a host that runs i386 natively).
s5p_i386_runner() {
	local d rc=1
	case "${S5P_I386_RUNNER:-}" in
	'') ;;
	native) return 0 ;;
	qemu-i386) command -v qemu-i386 >/dev/null && printf 'qemu-i386'; return ;;
	*) printf 'S5P_I386_RUNNER is native or qemu-i386, not %s\n' "$S5P_I386_RUNNER" >&2; return 1 ;;
	esac
	d=$(mktemp -d) || return 1
	if printf 'int main(void) { return 0; }\n' | gcc -m32 -x c -o "$d/probe" - 2>/dev/null; then
		if "$d/probe" 2>/dev/null; then
			rc=0
		elif command -v qemu-i386 >/dev/null && qemu-i386 "$d/probe"; then
			printf 'qemu-i386'
			rc=0
		fi
	fi
	rm -rf "$d"
	return $rc
}

# Version of an installed Debian package, or empty.
s5p_pkg_version() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null; }

# What counts as a kernel report in a console log, one extended regular
# expression a line in tests/guest/kernel-reports.re: the one list the host
# (boot.sh --check-log, every suite's t_no_reports) and the guest scripts
# (/tests/kernel-reports.re, kernel_reports in tests/guest/lib.sh) both
# use.  BUG (KASAN, sleeping in atomic, spinlock, SLUB's "BUG kmalloc-64
# (Not tainted): ..."), WARNING (WARN_ON, lockdep, DEBUG_LIST, refcount),
# lockdep turning itself off or finding a non-static key, Oops, panics,
# UBSAN, DMA-API debugging, debug objects, kmemleak's unreferenced objects,
# hung tasks and RCU stalls, OOM kills, page allocation failures and
# interrupt storms ("irq N: nobody cared").  kmemleak: the objects /init prints after its
# last scan ("unreferenced object 0x..."), not kmemleak's own "N new
# suspected memory leaks" line, which its first scans may print for objects
# an RCU callback frees a moment later (rootfs/init, kmemleak_scan).
S5P_REPORT_PATTERNS=$S5P_TOP/tests/guest/kernel-reports.re
S5P_REPORT_RE=$(paste -sd'|' "$S5P_REPORT_PATTERNS")
# A boot that provokes a report on purpose (an OOM kill under a hog) names
# it (boot.sh --allow-report NAME, t_no_reports's ALLOW): the reports each
# NAME covers, "NAME ERE" a line in tests/guest/kernel-reports.allow (oom,
# alloc-failure, irq-storm).  Only those lines of only that boot pass.
S5P_REPORT_ALLOW=$S5P_TOP/tests/guest/kernel-reports.allow

# s5p_report_allowance NAME...: the ERE of the report lines the allowances
# NAME... cover; an unknown NAME: a message naming the known ones, status 2.
s5p_report_allowance() {
	local n re out=
	for n in "$@"; do
		re=$(awk -v n="$n" '$1 == n { sub(/^[^ ]+ +/, ""); print; exit }' "$S5P_REPORT_ALLOW")
		if [ -z "$re" ]; then
			printf 'unknown report allowance '\''%s'\'' (one of: %s)\n' "$n" \
				"$(cut -d' ' -f1 "$S5P_REPORT_ALLOW" | tr '\n' ' ' | sed 's/ $//')" >&2
			return 2
		fi
		out+=${out:+|}$re
	done
	printf '%s\n' "$out"
}

# s5p_kernel_reports LOG [ALLOW...]: print the report lines of a console log
# but those the allowances ALLOW... cover (none: exit status 1, like grep;
# an unknown allowance: status 2).
s5p_kernel_reports() {
	local log=$1 re
	shift
	[ $# != 0 ] || { grep -aE "$S5P_REPORT_RE" "$log"; return; }
	re=$(s5p_report_allowance "$@") || return 2
	grep -aE "$S5P_REPORT_RE" "$log" | grep -avE "$re"
}

# s5p_allowed_reports LOG ALLOW...: the report lines of LOG that the
# allowances cover (none: status 1).
s5p_allowed_reports() {
	local log=$1 re
	shift
	re=$(s5p_report_allowance "$@") || return 2
	grep -aE "$S5P_REPORT_RE" "$log" | grep -aE "$re"
}
