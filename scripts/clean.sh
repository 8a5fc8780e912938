#!/usr/bin/env bash
# Free space in the cache ($S5P_CACHE, default ~/.cache/s5pv210-cma).
#
#   scripts/clean.sh --old       keep only what the current inputs use: the
#                                Debian versions in "versions", the builds,
#                                device trees and initramfs images of the
#                                current series and board files (both boards,
#                                every kernel flavour, the plain and the
#                                sanitizer QEMU); remove everything else
#   scripts/clean.sh --all       remove the whole cache (the next build starts
#                                from scratch: about 15 minutes)
#   --dry-run                    with either: list what would be removed
#   --force                      with --all: also remove dev trees
#                                (scripts/series.sh ... dev), which hold work
#   -h, --help                   this text
#
# --old never removes a dev tree or its builds, nor the logs, nor a run
# directory younger than a day (another run may be using it).  Prints each
# thing removed with its size, then the space freed and what is left.
set -u
. "$(dirname "$0")/lib/common.sh"

mode='' dry=0 force=0
while [ $# -gt 0 ]; do
	case "$1" in
	--old | --all) [ -z "$mode" ] || s5p_die "--old or --all, not both"; mode=${1#--} ;;
	--dry-run) dry=1 ;;
	--force) force=1 ;;
	-h | --help) sed -n '2,/^[^#]/p' "$0" | sed -n 's/^# \{0,1\}//p'; exit 0 ;;
	*) s5p_die "unknown option '$1' (try --help)" ;;
	esac
	shift
done
[ -n "$mode" ] || s5p_die "say what to remove: --old (what the current inputs do not use) or --all (try --help)"
[ -d "$S5P_CACHE" ] || { s5p_log "no cache at $S5P_CACHE: nothing to do"; exit 0; }

size() { du -sb "$@" 2>/dev/null | awk '{ s += $1 } END { printf "%.0f\n", s }'; }
human() { numfmt --to=iec --suffix=B --format='%.1f' "$1"; }
before=$(size "$S5P_CACHE")
freed=0
remove() {
	local p=$1 why=$2 sz
	[ -e "$p" ] || return 0
	sz=$(size "$p")
	freed=$((freed + sz))
	printf '%s %s (%s)%s\n' "$([ $dry = 1 ] && echo 'would remove' || echo removed)" \
		"${p#"$S5P_CACHE"/}" "$(human "$sz")" "${why:+: $why}"
	[ $dry = 1 ] || rm -rf "$p"
}

# Dev trees: git worktrees of a cache tree (scripts/series.sh KIND dev NAME).
devtrees() {
	local src
	for src in "$S5P_CACHE"/linux-*/src "$S5P_CACHE"/qemu-*/src; do
		[ -d "$src/.git" ] || continue
		git -C "$src" worktree list --porcelain 2>/dev/null |
			sed -n 's/^worktree //p' | grep -vxF "$src"
	done
}

if [ "$mode" = all ]; then
	dev=$(devtrees)
	if [ -n "$dev" ] && [ $force = 0 ]; then
		# shellcheck disable=SC2001 # (every line indented: sed's job)
		sed 's/^/    /' <<<"$dev" >&2
		s5p_die "the cache holds dev trees (above), which may hold work: scripts/series.sh KIND export them first, or add --force"
	fi
	for p in "$S5P_CACHE"/* "$S5P_CACHE"/.[!.]*; do remove "$p" ""; done
else
	# What the current inputs use: the build steps in dry-run mode name
	# their outputs (every board, kernel flavour and QEMU flavour).
	. "$S5P_TOP/scripts/lib/qemu.sh"
	. "$S5P_TOP/scripts/lib/rootfs.sh"
	export S5P_DRY_RUN=1
	unset S5P_KERNEL_TREE S5P_QEMU_TREE
	keep=$(mktemp)
	# shellcheck disable=SC2064
	trap "rm -f '$keep'" EXIT
	{
		for q in plain asan; do
			# shellcheck disable=SC2119 # (no argument: QEMU without its qtests)
			S5P_QEMU_FLAVOUR=$q s5p_qemu_build >/dev/null
			echo "$QBUILD"
		done
		echo "$QSRC" "$QSERIES_DIR"
		echo "$S5P_CACHE/downloads/qemu_${S5P_QVER#*:}.dsc"
		echo "$S5P_CACHE/downloads/qemu_${S5P_QVER#*:}.debian.tar.xz"
		echo "$S5P_CACHE/downloads/qemu_$(sed -E 's/^[0-9]+://; s/-[^-]*$//' <<<"$S5P_QVER").orig.tar.xz"
		for conf in "$S5P_TOP"/boards/*/board.conf; do
			board=$(basename "$(dirname "$conf")")
			for f in $(s5p_kernel_flavours); do
				unset S5P_DRY_KMODULES
				s5p_kernel_build "$board" "$f" >/dev/null
				echo "$KBUILD" "$(dirname "$KCONFIG_OUT")"
				ROOTFS=
				s5p_rootfs >/dev/null
				[ -z "$ROOTFS" ] || echo "$ROOTFS"
			done
			s5p_dtb "$board" >/dev/null
			echo "$DTB"
		done
		echo "$KSRC" "$KSERIES_DIR" "$S5P_CACHE/downloads/linux-source-$S5P_KVER.tar.xz"
		ls "$S5P_CACHE/downloads/linux-source-6.1_${S5P_KVER//:/%3a}_"*.deb 2>/dev/null
		s5p_armel_debs
	} | tr ' ' '\n' | sed '/^$/d' | sort -u >"$keep"
	kept() { grep -qxF -- "$1" "$keep"; }
	dev=$(devtrees)
	# A dev tree NAME in DIR: DIR/NAME, DIR/build-NAME*, DIR/kconfig-NAME-*.
	of_devtree() {
		local d n
		for d in $dev; do
			[ "$(dirname "$d")" = "$(dirname "$1")" ] || continue
			n=$(basename "$d")
			case "$(basename "$1")" in "$n" | "build-$n" | "build-$n-"* | "kconfig-$n-"*) return 0 ;; esac
		done
		return 1
	}
	for v in "$S5P_CACHE"/linux-* "$S5P_CACHE"/qemu-*; do
		[ -d "$v" ] || continue
		if ! kept "$v/src"; then
			if grep -qF "$v/" <<<"$dev"; then
				s5p_info "kept ${v#"$S5P_CACHE"/}: an older version, but it holds dev trees ($(grep -F "$v/" <<<"$dev" | xargs -n1 basename | tr '\n' ' '))"
				continue
			fi
			remove "$v" "a Debian version the file versions does not name"
			continue
		fi
		s5p_tree_lock "$v"
		for p in "$v"/build* "$v"/kconfig-*; do
			[ -e "$p" ] || continue
			kept "$p" || of_devtree "$p" || remove "$p" "built from other inputs"
		done
		s5p_tree_unlock
	done
	for p in "$S5P_CACHE"/dtb/* "$S5P_CACHE"/rootfs/*; do
		[ -e "$p" ] || continue
		kept "$p" || remove "$p" "built from other inputs"
	done
	for p in "$S5P_CACHE"/series/*; do
		[ -e "$p" ] || continue
		kept "$p" || remove "$p" "an older series"
	done
	for p in "$S5P_CACHE"/downloads/* "$S5P_CACHE"/downloads/armel/*.deb; do
		[ -f "$p" ] || continue
		case "$p" in *.log | *.err) continue ;; esac
		kept "$p" || remove "$p" "a version the file versions does not name"
	done
	# The host fuzzer's builds: the two newest (its 32- and 64-bit builds
	# of the current tree); its scratch runs.
	# shellcheck disable=SC2012 # (hex names)
	for p in $(ls -dt "$S5P_CACHE"/fuzz/build-* 2>/dev/null | tail -n +3) "$S5P_CACHE"/fuzz/run-*; do
		[ -e "$p" ] && remove "$p" "an older fuzzer build or run"
	done
	while read -r p; do
		remove "$p" "a run that ended without cleaning up"
	done < <(find "$S5P_CACHE/runs" -mindepth 1 -maxdepth 1 -mtime +0 2>/dev/null)
fi
if [ $dry = 1 ]; then
	printf 'would free %s; the cache (%s) would hold %s\n' "$(human "$freed")" "$S5P_CACHE" \
		"$(human $((before - freed)))"
else
	printf 'freed %s; the cache (%s) holds %s\n' "$(human "$freed")" "$S5P_CACHE" \
		"$(human "$(size "$S5P_CACHE")")"
fi
